/**
 * Where the site's ActivityPub documents live (issue 45, "stable URLs of your choosing"). Written
 * once here, read by the federation's handlers, the pages' `rel="alternate"` links and docs/fediverse.md.
 */
export const fediversePaths = {
  /** The site's actor (a Service), answering `application/activity+json`. */
  actor: "/fediverse/actor",
  /** The actor's inbox; also the shared inbox. */
  inbox: "/fediverse/inbox",
  outbox: "/fediverse/outbox",
  followers: "/fediverse/followers",
  /** A post as an `Article`: `/fediverse/posts/{id}`. */
  post: (id: number | string): string => `/fediverse/posts/${String(id)}`,
} as const;
