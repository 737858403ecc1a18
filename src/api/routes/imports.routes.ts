import { createdRunSchema, importFormSchema, importRunSchema } from "../../core/imports/import.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

export const importsRoutes = {
  create: declareRoute({
    method: "POST",
    path: apiPaths.imports,
    access: "admin",
    scope: "none",
    summary:
      "Starts an import of a Ghost, WordPress, Substack or Medium export: a dry run (the default) reports what would happen; `dryRun=false` imports",
    body: { type: "multipart", schema: importFormSchema },
    answers: { 202: jsonAnswer(createdRunSchema, "The run, started; its progress at `GET /api/imports/{id}`") },
  }),
  get: declareRoute({
    method: "GET",
    path: apiPaths.importRun,
    access: "admin",
    scope: "none",
    summary: "An import run: its status and report (posts new and skipped, images copied and failed, subscribers, redirects, warnings)",
    params: rowIdParams("Import not found"),
    answers: { 200: jsonAnswer(importRunSchema, "The run") },
  }),
};
