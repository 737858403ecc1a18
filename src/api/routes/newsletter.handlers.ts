import { importSubscribers } from "../../core/subscribers/subscriber-import.ts";
import { importConsentWording } from "../../core/subscribers/subscriber-import.schema.ts";
import { eraseSubscriber, exportSubscriberData } from "../../core/subscribers/subscriber-privacy.ts";
import { exportSubscribersCsv, subscribe } from "../../core/subscribers/subscribers.service.ts";
import { countSubscribers, listSubscribers } from "../../core/subscribers/subscriber-list.ts";
import { json } from "../http.ts";
import { recordSignup } from "../../core/stats/stats.service.ts";
import { requestedPage } from "../params.schema.ts";
import { maxListLimit } from "../../core/list-page.ts";
import { attachment } from "../attachment.ts";
import { countAfterAnswer, formPageOf, formRequestOf } from "../visit.ts";
import { changeSubscriberTags } from "../../core/subscribers/subscriber-tag-changes.ts";
import { listSubscriberTags } from "../../core/subscribers/subscriber-tags.ts";
import { subscriberTagsOf } from "../../core/subscribers/subscriber-tags.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { newsletterRoutes } from "./newsletter.routes.ts";

/**
 * The next page's URL (RFC 8288): this request's own, with its search and filters, after `cursor`.
 * A `page` number is dropped: the cursor says where the next page starts.
 */
function nextPageLink(request: Request, cursor: string): string {
  const url = new URL(request.url);
  url.searchParams.delete("page");
  url.searchParams.set("after", cursor);
  return `<${url.pathname}${url.search}>; rel="next"`;
}

export const newsletterHandlers: RouteHandlers<typeof newsletterRoutes> = {
  subscribe: async ({ body, deps, clientIp, request, session }) => {
    const consentId = await subscribe(deps, { email: body.email, clientIp, page: formPageOf(request, deps.env.SITE_URL) });
    countAfterAnswer(deps, async () => {
      if (consentId !== undefined && !(await session())) await recordSignup(deps, consentId, formRequestOf(request, clientIp, deps.env.SITE_URL));
    });
    return { subscribed: true } as const;
  },
  subscribers: async ({ deps, query, request }) => {
    const page = requestedPage(query) ?? (query.after === undefined ? undefined : { limit: maxListLimit, page: 1 });
    const { subscribers: listed, next } = await listSubscribers(deps, {
      status: query.status,
      topic: query.topic,
      tag: query.tag,
      q: query.q,
      page: page && { ...page, after: query.after },
    });
    const tags = await subscriberTagsOf(
      deps.db,
      listed.map((subscriber) => subscriber.id),
    );
    const subscribers = listed.map((subscriber) => ({ ...subscriber, tags: tags.get(subscriber.id) ?? [] }));
    return next === undefined ? subscribers : json(subscribers, { headers: { link: nextPageLink(request, next) } });
  },
  counts: ({ deps }) => countSubscribers(deps),
  export: ({ deps }) =>
    Promise.resolve(attachment(exportSubscribersCsv(deps), { fileName: "email-subscribers.csv", contentType: "text/csv; charset=utf-8" })),
  import: ({ body, deps }) =>
    importSubscribers(deps, {
      file: body.file,
      wording: importConsentWording,
      welcome: body.welcome === "true" || body.welcome === "on",
      tags: body.tags,
    }),
  tagList: ({ deps }) => listSubscriberTags(deps.db),
  tags: async ({ body, deps }) => ({ changed: await changeSubscriberTags(deps, body) }),
  exportOne: async ({ params, deps }) => {
    const data = await exportSubscriberData(deps, params.id);
    return attachment(JSON.stringify(data, null, 2), {
      fileName: `subscriber-${String(params.id)}.json`,
      contentType: "application/json; charset=utf-8",
    });
  },
  erase: ({ params, deps }) => eraseSubscriber(deps, params.id),
};
