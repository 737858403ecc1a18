import type { Config } from "@netlify/functions";
import { errorToResponse } from "../../src/api/api-handler.ts";
import { answerPreview, siteTemplates } from "../../src/api/preview-page.ts";
import { warmApp } from "../../src/app/boot-app.ts";

/** This instance's app, as in api.ts. */
const instanceApp = warmApp();

/** A draft's preview page, rendered on demand from the built post template (src/api/preview-page.ts). */
export default async (request: Request): Promise<Response> => {
  try {
    const app = await instanceApp();
    return await answerPreview(app.deps, request, siteTemplates(request));
  } catch (error) {
    return errorToResponse(error, request);
  }
};

export const config: Config = {
  path: "/preview/*",
};
