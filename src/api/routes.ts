import type { Route } from "./route-table.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { siteSettingsRoutes } from "./routes/site-settings.routes.ts";

/** Every API route, wired in one place. */
export const apiRoutes: Route[] = [...healthRoutes, ...siteSettingsRoutes];
