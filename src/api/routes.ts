import type { Route } from "./route-table.ts";
import { authRoutes } from "./routes/auth.routes.ts";
import { blogPostsRoutes } from "./routes/blog-posts.routes.ts";
import { downloadsRoutes } from "./routes/downloads.routes.ts";
import { filesRoutes } from "./routes/files.routes.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { newsletterRoutes } from "./routes/newsletter.routes.ts";
import { siteSettingsRoutes } from "./routes/site-settings.routes.ts";

/** Every API route, wired in one place. */
export const apiRoutes: Route[] = [
  ...healthRoutes,
  ...authRoutes,
  ...blogPostsRoutes,
  ...downloadsRoutes,
  ...filesRoutes,
  ...siteSettingsRoutes,
  ...newsletterRoutes,
];
