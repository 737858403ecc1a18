import { settingUpdateSchema } from "../../core/settings/settings.schema.ts";
import { listSiteSettings, updateSiteSetting } from "../../core/settings/settings.service.ts";
import { json, readJson } from "../http.ts";
import type { Route } from "../route-table.ts";

export const siteSettingsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/site-settings",
    shared: true,
    handle: async ({ deps }) => json(await listSiteSettings(deps)),
  },
  {
    method: "PUT",
    path: "/api/site-settings/:key",
    access: "admin",
    handle: async ({ request, params, deps }) => {
      const { value } = await readJson(request, settingUpdateSchema);
      return json(await updateSiteSetting(deps, params.key ?? "", value));
    },
  },
];
