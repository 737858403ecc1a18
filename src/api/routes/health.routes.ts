import { checkHealth } from "../../core/health.ts";
import { json } from "../http.ts";
import type { Route } from "../route-table.ts";

export const healthRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/health",
    handle: async ({ deps }) => json(await checkHealth(deps)),
  },
];
