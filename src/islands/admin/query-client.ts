import { QueryClient } from "@tanstack/react-query";
import { api } from "./api-client.ts";

/**
 * SPEC §9's shared data client: no refetch interval, none on window focus, data never stale, no
 * retries. Lists refresh because each change invalidates them, not by polling. The default fetch
 * is a GET of the key's segments joined by slashes (SPEC §7).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        queryFn: ({ queryKey }) => api(queryKey.join("/")),
        refetchInterval: false,
        refetchOnWindowFocus: false,
        staleTime: Infinity,
        retry: false,
      },
      mutations: { retry: false },
    },
  });
}

/** Query keys, one per list the dashboard shows. */
export const queryKeys = {
  posts: ["/api/blog-posts"],
  downloads: ["/api/downloads"],
  subscribers: ["/api/newsletter/subscribers"],
  settings: ["/api/site-settings"],
  session: ["/api/auth/session"],
} as const;
