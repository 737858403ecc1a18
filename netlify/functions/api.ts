import type { Config, Context } from "@netlify/functions";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { createApp, type App } from "../../src/app/create-app.ts";
import { productionParts } from "../../src/app/production-parts.ts";
import { readServerEnv } from "../../src/config/server-env.ts";

let app: Promise<App> | undefined;

/**
 * This instance's app, built from its environment on the first call and kept while it stays warm.
 * A failed start (a missing variable) is not kept: it is answered as a 500, logged, and retried.
 */
function instanceApp(): Promise<App> {
  app ??= (async () => createApp(await productionParts(readServerEnv(process.env))))().catch((error: unknown) => {
    app = undefined;
    throw error;
  });
  return app;
}

/** The whole API as one function: one warm instance answers every `/api/*` call. */
export default async (request: Request, context: Pick<Context, "ip"> & Partial<Pick<Context, "waitUntil">>): Promise<Response> => {
  let ready: App;
  try {
    ready = await instanceApp();
  } catch (error) {
    return errorToResponse(error, request);
  }
  return ready.handleApi(request, { ip: context.ip, ...(context.waitUntil && { waitUntil: context.waitUntil.bind(context) }) });
};

export const config: Config = {
  path: "/api/*",
};
