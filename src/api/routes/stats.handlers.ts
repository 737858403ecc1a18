import { getStats, recordPageView } from "../../core/stats/stats.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { statsRoutes } from "./stats.routes.ts";

/** The site's own host names: the request's, and SITE_URL's when set (a proxy may present another). */
function siteHosts(request: Request, siteUrl: string | undefined): string[] {
  const hosts = [new URL(request.url).hostname];
  if (siteUrl) hosts.push(new URL(siteUrl).hostname);
  return hosts;
}

export const statsHandlers: RouteHandlers<typeof statsRoutes> = {
  event: async ({ body, deps, request, clientIp, country, session }) => {
    // The owner reading their own site is not a visitor.
    if (await session()) return;
    await recordPageView(deps, {
      ...body,
      userAgent: request.headers.get("user-agent") ?? "",
      clientIp,
      country,
      siteHosts: siteHosts(request, deps.env.SITE_URL),
    });
  },
  stats: ({ query, deps }) => getStats(deps, query),
};
