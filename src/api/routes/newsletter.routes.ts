import { takeRateLimit } from "../../core/rate-limit.ts";
import { subscribeSchema } from "../../core/subscribers/subscriber.schema.ts";
import { addSubscriber, exportSubscribersCsv, listSubscribers } from "../../core/subscribers/subscribers.service.ts";
import { json, readJson } from "../http.ts";
import type { Route } from "../route-table.ts";

/** Per client IP: plenty for a person, little for a script filling the list. */
export const subscribeLimit = { bucket: "newsletter", max: 10, windowMs: 10 * 60 * 1000 };

export const newsletterRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/newsletter/subscribe",
    handle: async ({ request, deps, clientIp }) => {
      const { email } = await readJson(request, subscribeSchema);
      await takeRateLimit(deps, subscribeLimit, clientIp);
      await addSubscriber(deps, email, "newsletter");
      return json({ subscribed: true });
    },
  },
  {
    method: "GET",
    path: "/api/newsletter/subscribers",
    access: "admin",
    handle: async ({ deps }) => json(await listSubscribers(deps)),
  },
  {
    method: "GET",
    path: "/api/newsletter/subscribers/export",
    access: "admin",
    handle: ({ deps }) =>
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
  },
];
