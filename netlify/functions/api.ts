import type { Config, Context } from "@netlify/functions";
import { createApiHandler } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { appDeps } from "../../src/core/app-deps.ts";

// Anonymous public reads are shared for a second (src/api/shared-reads.ts): visitors may see
// another instance's change a second late; this instance's own writes clear it at once.
const handleApi = createApiHandler({ routes: apiRoutes, deps: appDeps, sharedReadMs: 1000 });

/** The whole API as one function: one warm instance answers every `/api/*` call. */
export default (request: Request, context: Pick<Context, "ip"> & Partial<Pick<Context, "waitUntil">>): Promise<Response> =>
  handleApi(request, { ip: context.ip, ...(context.waitUntil && { waitUntil: context.waitUntil.bind(context) }) });

export const config: Config = {
  path: "/api/*",
};
