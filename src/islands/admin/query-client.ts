import { infiniteQueryOptions, MutationCache, QueryCache, QueryClient } from "@tanstack/react-query";
import type { RouteAnswer, RouteDeclaration } from "../../api/declare-route.ts";
import { apiKeysRoutes } from "../../api/routes/api-keys.routes.ts";
import { paymentsRoutes } from "../../api/routes/payments.routes.ts";
import { authRoutes } from "../../api/routes/auth.routes.ts";
import { blogPostsRoutes } from "../../api/routes/blog-posts.routes.ts";
import { downloadsRoutes } from "../../api/routes/downloads.routes.ts";
import { fediverseRoutes } from "../../api/routes/fediverse.routes.ts";
import { passkeysRoutes } from "../../api/routes/passkeys.routes.ts";
import { newsletterRoutes } from "../../api/routes/newsletter.routes.ts";
import { setupRoutes } from "../../api/routes/setup.routes.ts";
import { siteBuildRoutes } from "../../api/routes/site-build.routes.ts";
import { siteSettingsRoutes } from "../../api/routes/site-settings.routes.ts";
import { statsRoutes } from "../../api/routes/stats.routes.ts";
import { tagsRoutes } from "../../api/routes/tags.routes.ts";
import type { AdminDownload } from "../../core/downloads/download.schema.ts";
import type { DeliveryStatus } from "../../core/fediverse/fediverse.schema.ts";
import type { SubscriberStatus } from "../../core/subscribers/subscriber.schema.ts";
import type { TaggedSubscriber } from "../../core/subscribers/subscriber-tags.schema.ts";
import { ApiError, callApi, callApiPage } from "./api-client.ts";

/** The session as the dashboard knows it: the server's answer, and whether it ended under the owner's hands. */
export type SessionState = RouteAnswer<typeof authRoutes.session> & { expired?: boolean };

/**
 * A list the dashboard shows, read with a GET of its route: the key is the route's path (SPEC §7:
 * the fetch goes to the key's segments joined by slashes).
 */
function routeQuery<Route extends RouteDeclaration & { method: "GET" }>(route: Route) {
  return { queryKey: [route.path], queryFn: () => callApi(route as RouteDeclaration) as Promise<RouteAnswer<Route>> };
}

/** How many subscribers the dashboard lists at a time; "Show more" loads the next ones. */
export const subscribersPageSize = 100;

/** How many posts the dashboard lists at a time; "Show more" loads the next ones. */
export const postsPageSize = 50;

/** One query per list the dashboard shows, and the session. */
export const queries = {
  posts: {
    queryKey: [blogPostsRoutes.list.path],
    queryPage: (page: number) => callApi(blogPostsRoutes.list, { query: { limit: String(postsPageSize), page: String(page) } }),
    pageSize: postsPageSize,
  },
  downloads: {
    queryKey: [downloadsRoutes.list.path],
    // Asked with the session, so each resource carries the dashboard's fields.
    queryFn: async () => (await callApi(downloadsRoutes.list)) as AdminDownload[],
  },
  subscribers: {
    /** Every subscriber query's key starts with this: invalidating it refreshes the totals and the pages. */
    queryKey: [newsletterRoutes.subscribers.path],
    counts: { queryKey: [newsletterRoutes.subscribers.path, "counts"], queryFn: () => callApi(newsletterRoutes.counts) },
    /**
     * The list, one status or all, `subscribersPageSize` at a time: each next page is the URL the
     * last answer's `Link: rel="next"` gave (a cursor, so any depth is as quick as the first page).
     */
    pages: (status: SubscriberStatus | undefined, filter: { topic?: string; tag?: string; q?: string } = {}) =>
      infiniteQueryOptions({
        queryKey: [newsletterRoutes.subscribers.path, "list", status ?? "all", filter.topic ?? "", filter.tag ?? "", filter.q ?? ""],
        queryFn: ({ pageParam }: { pageParam: string | undefined }) =>
          callApiPage(
            newsletterRoutes.subscribers,
            {
              query: {
                limit: String(subscribersPageSize),
                status,
                ...(filter.topic && { topic: filter.topic }),
                ...(filter.tag && { tag: filter.tag }),
                ...(filter.q && { q: filter.q }),
              },
            },
            pageParam,
          ),
        initialPageParam: undefined as string | undefined,
        getNextPageParam: (last: { rows: TaggedSubscriber[]; next: string | undefined }) => last.next,
      }),
  },
  /** The site's tags, for the post form's suggestions. */
  tags: routeQuery(tagsRoutes.list),
  settings: routeQuery(siteSettingsRoutes.list),
  security: routeQuery(passkeysRoutes.security),
  siteBuild: routeQuery(siteBuildRoutes.status),
  setup: routeQuery(setupRoutes.checklist),
  apiKeys: routeQuery(apiKeysRoutes.list),
  /** Whether Stripe is set up (test or live): the price fields and the payments list show only then. */
  paymentsConfig: routeQuery(paymentsRoutes.config),
  session: { queryKey: [authRoutes.session.path], queryFn: (): Promise<SessionState> => callApi(authRoutes.session) },
  /** The Stats tab's figures for a range of days. */
  stats: (range: { from: string; to: string }) => ({
    queryKey: [statsRoutes.stats.path, range.from, range.to],
    queryFn: () => callApi(statsRoutes.stats, { query: range }),
    // Visitors keep coming: a look back at the tab reads them again.
    staleTime: 0,
    refetchOnWindowFocus: true,
  }),
  /** The Fediverse section (issue 45): followers a page at a time, blocked servers, the delivery log. */
  fediverse: {
    /** Every followers page's key starts with this: a removal or a block refreshes them all. */
    followersKey: [fediverseRoutes.followers.path],
    followers: (page: number) => ({
      queryKey: [fediverseRoutes.followers.path, page],
      queryFn: () => callApi(fediverseRoutes.followers, { query: { page: String(page) } }),
    }),
    blocks: routeQuery(fediverseRoutes.blocks),
    deliveries: (status: DeliveryStatus | undefined) => ({
      queryKey: [fediverseRoutes.deliveries.path, status ?? "all"],
      queryFn: () => callApi(fediverseRoutes.deliveries, { query: status ? { status } : {} }),
      // Deliveries go out on their own (the outbox): a look back at the section reads the log again.
      staleTime: 0,
      refetchOnWindowFocus: true,
    }),
  },
  /** The Stats tab's followers over time and each post's likes, boosts and replies from the fediverse. */
  statsFediverse: { ...routeQuery(fediverseRoutes.stats), staleTime: 0, refetchOnWindowFocus: true },
  /** The Stats tab's people, growth and clicks per topic and per subscriber tag for the same range. */
  statsAudience: (range: { from: string; to: string }) => ({
    queryKey: [statsRoutes.audience.path, range.from, range.to],
    queryFn: () => callApi(statsRoutes.audience, { query: range }),
    staleTime: 0,
    refetchOnWindowFocus: true,
  }),
};

/**
 * SPEC §9's shared data client: no refetch interval, none on window focus, data never stale, no
 * retries. Lists refresh because each change invalidates them, not by polling.
 *
 * A 401 from any call that needed the session ends it here, in the caches' own error callbacks:
 * the session answer becomes `expired` and the login form comes back. A call sent before the
 * latest login or logout (a slow upload) belongs to a session already over and ends nothing.
 */
export function createQueryClient(): QueryClient {
  const endSessionOn = (error: unknown) => {
    if (!(error instanceof ApiError) || !error.endsSession) return;
    const session = client.getQueryState<SessionState>(queries.session.queryKey);
    if (!session || error.sentAt < session.dataUpdatedAt || session.data?.authenticated === false) return;
    client.setQueryData<SessionState>(queries.session.queryKey, { authenticated: false, expired: true });
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: endSessionOn }),
    // Any change the owner makes may tick an item of the setup checklist: it is asked again after
    // each, but not after one that ends the session (`meta.endsSession`: the logout), which would be refused.
    mutationCache: new MutationCache({
      onError: endSessionOn,
      onSuccess: async (_data, _variables, _context, mutation): Promise<void> => {
        if (mutation.meta?.endsSession === true) return;
        await client.invalidateQueries({ queryKey: queries.setup.queryKey });
      },
    }),
    defaultOptions: {
      queries: {
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
