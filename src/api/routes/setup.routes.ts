import { demoContentRemovedSchema, setupChecklistSchema } from "../../core/setup/setup-checklist.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const setupRoutes = {
  checklist: declareRoute({
    method: "GET",
    path: apiPaths.setupChecklist,
    access: "admin",
    scope: "none",
    summary: "What a new site still holds from the demo or at a default, each with where it is fixed",
    answers: { 200: jsonAnswer(setupChecklistSchema, "The checklist, and how much of it is done") },
  }),
  removeDemoContent: declareRoute({
    method: "POST",
    path: apiPaths.setupDemoContent,
    access: "admin",
    scope: "none",
    summary: "Deletes every demo post and resource (with their files), then rebuilds the site",
    answers: { 200: jsonAnswer(demoContentRemovedSchema, "How many demo posts and resources were deleted") },
  }),
};
