import { listSiteSettings } from "../../core/settings/settings.service.ts";
import { json } from "../http.ts";
import type { Route } from "../route-table.ts";

export const siteSettingsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/site-settings",
    handle: async ({ deps }) => json(await listSiteSettings(deps)),
  },
];
