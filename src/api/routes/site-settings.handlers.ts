import { listSiteSettings, updateSiteSetting } from "../../core/settings/settings.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { siteSettingsRoutes } from "./site-settings.routes.ts";

export const siteSettingsHandlers: RouteHandlers<typeof siteSettingsRoutes> = {
  list: ({ deps }) => listSiteSettings(deps),
  update: ({ params, body, deps }) => updateSiteSetting(deps, params.key, body.value),
  hide: ({ params, deps }) => updateSiteSetting(deps, params.key, "", { hidden: true }),
};
