import { removeDemoContent, setupChecklist } from "../../core/setup/setup-checklist.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { setupRoutes } from "./setup.routes.ts";

export const setupHandlers: RouteHandlers<typeof setupRoutes> = {
  checklist: ({ deps }) => setupChecklist(deps),
  removeDemoContent: ({ deps }) => removeDemoContent(deps),
};
