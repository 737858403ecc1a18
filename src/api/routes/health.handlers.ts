import { checkHealth } from "../../core/health.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { healthRoutes } from "./health.routes.ts";

/** The OpenAPI document is answered where the whole route list is known (routes.ts). */
export const healthHandlers = (openApiDocument: () => Record<string, unknown>): RouteHandlers<typeof healthRoutes> => ({
  check: ({ deps }) => checkHealth(deps),
  openApi: () => Promise.resolve(openApiDocument()),
});
