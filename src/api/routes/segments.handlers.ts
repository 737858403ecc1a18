import {
  countAudience,
  createSegment,
  deleteSegment,
  getSegment,
  listSegments,
  resolveAudience,
  updateSegment,
} from "../../core/segments/segments.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { segmentsRoutes } from "./segments.routes.ts";

export const segmentsHandlers: RouteHandlers<typeof segmentsRoutes> = {
  audience: async ({ body, deps }) => ({ count: await countAudience(deps.db, await resolveAudience(deps.db, body.segment)) }),
  list: ({ deps }) => listSegments(deps),
  create: ({ body, deps }) => createSegment(deps, body),
  get: ({ params, deps }) => getSegment(deps, params.id),
  update: ({ params, body, deps }) => updateSegment(deps, params.id, body),
  remove: ({ params, deps }) => deleteSegment(deps, params.id),
};
