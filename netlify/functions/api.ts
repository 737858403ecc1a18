import type { Config, Context } from "@netlify/functions";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { warmApp } from "../../src/app/boot-app.ts";
import type { App } from "../../src/app/create-app.ts";

/**
 * This instance's app, built from its environment on the first call and kept while it stays warm.
 * A failed start (a missing variable) is not kept: it is answered as a 500, logged, and retried.
 */
const instanceApp = warmApp();

/** The whole API as one function: one warm instance answers every `/api/*` call. */
export default async (request: Request, context: Pick<Context, "ip"> & Partial<Pick<Context, "waitUntil" | "geo">>): Promise<Response> => {
  let ready: App;
  try {
    ready = await instanceApp();
  } catch (error) {
    return errorToResponse(error, request);
  }
  return ready.handleApi(request, {
    ip: context.ip,
    country: context.geo?.country?.code,
    ...(context.waitUntil && { waitUntil: context.waitUntil.bind(context) }),
  });
};

export const config: Config = {
  path: "/api/*",
};
