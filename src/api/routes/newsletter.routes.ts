import type { AppDeps } from "../../core/app-deps.ts";
import { AppError } from "../../core/errors.ts";
import { takeRateLimit } from "../../core/rate-limit.ts";
import { subscribeSchema } from "../../core/subscribers/subscriber.schema.ts";
import { addSubscriber, exportSubscribersCsv, listSubscribers } from "../../core/subscribers/subscribers.service.ts";
import { readForm } from "../forms.ts";
import { json, readJson } from "../http.ts";
import type { Route } from "../route-table.ts";

/** Per client IP: plenty for a person, little for a script filling the list. */
export const subscribeLimit = { bucket: "newsletter", max: 10, windowMs: 10 * 60 * 1000 };

/** A newsletter signup, limited per client IP. */
async function subscribe(deps: AppDeps, email: string, clientIp: string): Promise<void> {
  await takeRateLimit(deps, subscribeLimit, clientIp);
  await addSubscriber(deps, email, "newsletter");
}

const isFormPost = (request: Request) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(request.headers.get("content-type") ?? "");

const seeOther = (location: string) => new Response(null, { status: 303, headers: { location } });

export const newsletterRoutes: Route[] = [
  {
    method: "POST",
    path: "/api/newsletter/subscribe",
    handle: async ({ request, deps, clientIp }) => {
      // Without JavaScript the browser posts the form itself: it gets a page to land on, not JSON.
      if (isFormPost(request)) {
        try {
          const { email } = await readForm(request, subscribeSchema);
          await subscribe(deps, email, clientIp);
          return seeOther("/subscribed/");
        } catch (error) {
          if (error instanceof AppError && error.status < 500) return seeOther("/subscribe-failed/");
          throw error;
        }
      }
      const { email } = await readJson(request, subscribeSchema);
      await subscribe(deps, email, clientIp);
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
