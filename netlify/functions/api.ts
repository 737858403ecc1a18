import type { Config, Context } from "@netlify/functions";
import { createApiHandler } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { appDeps } from "../../src/core/app-deps.ts";

const handleApi = createApiHandler({ routes: apiRoutes, deps: appDeps });

/** The whole API as one function: one warm instance answers every `/api/*` call. */
export default (request: Request, context: Pick<Context, "ip"> & Partial<Pick<Context, "waitUntil">>): Promise<Response> =>
  handleApi(request, { ip: context.ip, ...(context.waitUntil && { waitUntil: context.waitUntil.bind(context) }) });

export const config: Config = {
  path: "/api/*",
};
