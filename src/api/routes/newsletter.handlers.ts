import { exportSubscribersCsv, listSubscribers, subscribe } from "../../core/subscribers/subscribers.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { newsletterRoutes } from "./newsletter.routes.ts";

export const newsletterHandlers: RouteHandlers<typeof newsletterRoutes> = {
  subscribe: async ({ body, deps, clientIp }) => {
    await subscribe(deps, { email: body.email, clientIp });
    return { subscribed: true } as const;
  },
  subscribers: ({ deps }) => listSubscribers(deps),
  export: ({ deps }) =>
    Promise.resolve(
      new Response(exportSubscribersCsv(deps), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": 'attachment; filename="email-subscribers.csv"',
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      }),
    ),
};
