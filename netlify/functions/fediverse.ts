import type { Config, Context } from "@netlify/functions";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { warmApp } from "../../src/app/boot-app.ts";

/** This instance's app, as in api.ts. */
const instanceApp = warmApp();

/** The site's ActivityPub side (docs/fediverse.md): WebFinger, NodeInfo, the actor, its inbox and the posts' objects. */
export default async (request: Request, context: Partial<Pick<Context, "waitUntil">>): Promise<Response> => {
  try {
    const app = await instanceApp();
    return await app.handleFediverse(request, context.waitUntil ? { waitUntil: context.waitUntil.bind(context) } : {});
  } catch (error) {
    return errorToResponse(error, request);
  }
};

// A function's path wins over the static files.
export const config: Config = {
  path: ["/.well-known/webfinger", "/.well-known/nodeinfo", "/nodeinfo/2.1", "/fediverse/*"],
};
