import { buildStatusSchema } from "../../core/publishing/build-status.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const siteBuildRoutes = {
  status: declareRoute({
    method: "GET",
    path: apiPaths.siteBuild,
    access: "admin",
    scope: "content:read",
    summary: "Whether the public site has caught up with the content: live, rebuilding, or retrying a failed build hook",
    answers: { 200: jsonAnswer(buildStatusSchema, "Where the site stands, with the last build-hook error while retrying") },
  }),
};
