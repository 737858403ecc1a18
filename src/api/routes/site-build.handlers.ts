import { buildStatus } from "../../core/publishing/build-status.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { siteBuildRoutes } from "./site-build.routes.ts";

export const siteBuildHandlers: RouteHandlers<typeof siteBuildRoutes> = {
  status: ({ deps }) => buildStatus(deps),
};
