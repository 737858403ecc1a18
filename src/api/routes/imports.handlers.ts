import { getImportRun, startImport } from "../../core/imports/import-runs.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { importsRoutes } from "./imports.routes.ts";

export const importsHandlers: RouteHandlers<typeof importsRoutes> = {
  create: async ({ body, deps }) => startImport(deps, body, new Uint8Array(await body.file.arrayBuffer())),
  get: ({ params, deps }) => getImportRun(deps, params.id),
};
