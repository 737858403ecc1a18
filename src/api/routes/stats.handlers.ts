import { getAudienceStats } from "../../core/stats/audience-stats.ts";
import { followClick } from "../../core/stats/newsletter-clicks.ts";
import { getStats, recordPageView } from "../../core/stats/stats.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { siteHosts } from "../visit.ts";
import type { statsRoutes } from "./stats.routes.ts";

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
  audience: ({ query, deps }) => getAudienceStats(deps, query),
  click: async ({ query, deps, request, clientIp }) => {
    const url = await followClick(deps, { link: query.l, recipient: query.r, userAgent: request.headers.get("user-agent") ?? "", clientIp });
    return new Response(null, { status: 302, headers: { location: url ?? "/", "cache-control": "no-store", "referrer-policy": "no-referrer" } });
  },
};
