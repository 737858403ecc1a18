import {
  blockServer,
  fediverseStats,
  listBlocks,
  listDeliveries,
  listFollowers,
  removeFollower,
  unblockServer,
} from "../../core/fediverse/fediverse.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { fediverseRoutes } from "./fediverse.routes.ts";

export const fediverseHandlers: RouteHandlers<typeof fediverseRoutes> = {
  followers: ({ query, deps }) => listFollowers(deps, query.page ?? 1),
  removeFollower: ({ params, deps }) => removeFollower(deps, params.id),
  blocks: ({ deps }) => listBlocks(deps),
  block: ({ body, deps }) => blockServer(deps, body.domain),
  unblock: ({ params, deps }) => unblockServer(deps, params.domain),
  deliveries: ({ query, deps }) => listDeliveries(deps, query.status),
  stats: ({ deps }) => fediverseStats(deps),
};
