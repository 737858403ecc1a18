import { getImportRun, startImport } from "../../core/imports/import-runs.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { importsRoutes } from "./imports.routes.ts";

export const importsHandlers: RouteHandlers<typeof importsRoutes> = {
  create: ({ body, deps }) => startImport(deps, body),
  get: ({ params, deps }) => getImportRun(deps, params.id),
};
