import { z } from "zod";

/**
 * The fediverse API's shapes (issue 45; docs/fediverse.md): the owner's followers, blocked servers,
 * the delivery log and the follower figures for Stats.
 */

/** Followers on one page of `GET /api/fediverse/followers`. */
export const followersPageSize = 50;

/** A server's host name as the owner types it: `mastodon.social`, `example.com:8443`; lower-cased. */
export const domainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253, "domain must be at most 253 characters")
  .regex(/^(?=.{1,253}(?::\d{1,5})?$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*(?::\d{1,5})?$/, {
    error: "domain must be a server's host name, such as mastodon.social",
  })
  .meta({ description: "A server's host name (with its port when it has one), such as `mastodon.social`", example: "mastodon.social" });

export const followerSchema = z.object({
  id: z.number().int(),
  handle: z.string().meta({ description: "`user@server`", example: "alice@mastodon.social" }),
  server: z.string().meta({ description: "The follower's server (host name)", example: "mastodon.social" }),
  name: z.string().meta({ description: "Their display name (their user name when they have none)" }),
  url: z.string().meta({ description: "Their profile page (their actor id when they name none)" }),
  avatar: z.string().nullable().meta({ description: "Their avatar's address on their server; null when they have none" }),
  since: z.iso.datetime().meta({ description: "When they followed" }),
});
export type Follower = z.output<typeof followerSchema>;

/** `GET /api/fediverse/followers?page=`. */
export const followersQuerySchema = z.object({
  page: z
    .string()
    .regex(/^[1-9]\d{0,5}$/, "page must be a whole number from 1")
    .transform(Number)
    .optional()
    .meta({ description: "Which page (50 followers, newest first), from 1 (default 1)" }),
});

export const followersPageSchema = z.object({
  followers: z.array(followerSchema),
  total: z.number().int().meta({ description: "Every follower" }),
  page: z.number().int(),
  pages: z.number().int().meta({ description: "How many pages there are (at least 1)" }),
});
export type FollowersPage = z.output<typeof followersPageSchema>;

/** `POST /api/fediverse/blocks`. */
export const blockInputSchema = z.object({ domain: domainSchema });

export const blockSchema = z.object({
  domain: z.string(),
  createdAt: z.iso.datetime(),
});
export type Block = z.output<typeof blockSchema>;

export const blocksSchema = z.object({ blocks: z.array(blockSchema) });

/** `DELETE /api/fediverse/blocks/{domain}`: anything that is no host name names no block (404). */
export const blockParamsSchema = z.object({
  domain: z
    .string()
    .max(260)
    .transform((value) => value.toLowerCase())
    .pipe(z.string().regex(/^[a-z0-9.:-]+$/, "Block not found")),
});

export const deliveryStatuses = ["waiting", "delivered", "failed", "given-up"] as const;
export const deliveryStatusSchema = z.enum(deliveryStatuses);
export type DeliveryStatus = z.output<typeof deliveryStatusSchema>;

export const deliveryActivities = ["Create", "Update", "Delete", "Accept"] as const;
export const deliveryActivitySchema = z.enum(deliveryActivities);
export type DeliveryActivity = z.output<typeof deliveryActivitySchema>;

/** `GET /api/fediverse/deliveries?status=`. */
export const deliveriesQuerySchema = z.object({
  status: deliveryStatusSchema.optional().meta({ description: "Only deliveries in this state; absent: all" }),
});

export const deliverySchema = z.object({
  id: z.number().int(),
  activity: deliveryActivitySchema,
  postId: z.number().int().nullable().meta({ description: "The post it carries; null for an Accept (or a deleted post)" }),
  postTitle: z.string().nullable(),
  inbox: z.string().meta({ description: "The inbox it goes to (a server's shared inbox when it has one)" }),
  server: z.string(),
  status: deliveryStatusSchema.meta({
    description: "waiting (not tried yet), delivered, failed (tried, will be tried again), given-up (its server failed for too long)",
  }),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  updatedAt: z.iso.datetime(),
});
export type Delivery = z.output<typeof deliverySchema>;

export const deadServerSchema = z.object({
  server: z.string(),
  since: z.iso.datetime().meta({ description: "Since when every delivery to it has failed" }),
});

export const deliveriesSchema = z.object({
  deliveries: z.array(deliverySchema).meta({ description: "The latest 200, most recently changed first" }),
  deadServers: z
    .array(deadServerSchema)
    .meta({ description: "Servers given up on: nothing more is sent to them until one of their followers acts again" }),
});
export type Deliveries = z.output<typeof deliveriesSchema>;

/** `GET /api/stats/fediverse`. */
export const fediverseStatsSchema = z.object({
  followers: z
    .array(z.object({ day: z.string().meta({ description: "YYYY-MM-DD (the site's time zone)" }), total: z.number().int() }))
    .meta({ description: "Followers at the end of each of the last 90 days, oldest first" }),
  posts: z
    .array(
      z.object({
        postId: z.number().int(),
        title: z.string(),
        likes: z.number().int(),
        boosts: z.number().int(),
        replies: z.number().int(),
      }),
    )
    .meta({ description: "Published posts with any reaction, most reactions first (at most 100)" }),
});
export type FediverseStats = z.output<typeof fediverseStatsSchema>;
