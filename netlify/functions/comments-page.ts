import type { Config } from "@netlify/functions";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { answerCommentsPage } from "../../src/api/comments-page.ts";
import { siteTemplates } from "../../src/api/preview-page.ts";
import { warmApp } from "../../src/app/boot-app.ts";

/** This instance's app, as in api.ts. */
const instanceApp = warmApp();

/** A post's comments without JavaScript, rendered on demand (src/api/comments-page.ts). */
export default async (request: Request): Promise<Response> => {
  try {
    const app = await instanceApp();
    return await answerCommentsPage(app.deps, request, siteTemplates(request));
  } catch (error) {
    return errorToResponse(error, request);
  }
};

// A function's path wins over the static files and netlify.toml's `/blog/*` 404 rule.
export const config: Config = {
  path: ["/blog/:slug/comments/", "/blog/:slug/comments"],
};
