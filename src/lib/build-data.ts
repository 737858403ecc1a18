import { appDeps } from "../core/app-deps.ts";
import { siteSettingValues } from "../core/settings/settings.service.ts";

/** Site settings for pages, read from the database when the site is built. */
export async function loadSiteSettings() {
  return siteSettingValues(await appDeps());
}
