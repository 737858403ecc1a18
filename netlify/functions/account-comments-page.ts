import type { Config } from "@netlify/functions";
import { answerAccountCommentsPage } from "../../src/api/account-comments-page.ts";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { siteTemplates } from "../../src/api/preview-page.ts";
import { warmApp } from "../../src/app/boot-app.ts";

/** This instance's app, as in api.ts. */
const instanceApp = warmApp();

/** The reader's own comments without JavaScript, rendered on demand (src/api/account-comments-page.ts). */
export default async (request: Request): Promise<Response> => {
  try {
    const app = await instanceApp();
    return await answerAccountCommentsPage(app.deps, request, siteTemplates(request));
  } catch (error) {
    return errorToResponse(error, request);
  }
};

// A function's path wins over the static files (`/account/` is a built page).
export const config: Config = {
  path: ["/account/comments/", "/account/comments"],
};
