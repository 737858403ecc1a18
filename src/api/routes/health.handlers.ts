import { checkHealth } from "../../core/health.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { healthRoutes } from "./health.routes.ts";

/**
 * The OpenAPI document is answered where the whole route list is known (routes.ts), for the request
 * that asks (the session cookie's name depends on its protocol).
 */
export const healthHandlers = (openApiDocument: (request: Request) => Record<string, unknown>): RouteHandlers<typeof healthRoutes> => ({
  check: ({ deps }) => checkHealth(deps),
  openApi: ({ request }) => Promise.resolve(openApiDocument(request)),
});
