import {
  blockInputSchema,
  blockParamsSchema,
  blockSchema,
  blocksSchema,
  deliveriesQuerySchema,
  deliveriesSchema,
  fediverseStatsSchema,
  followersPageSchema,
  followersQuerySchema,
} from "../../core/fediverse/fediverse.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

/**
 * The owner's side of the site's fediverse actor (issue 45; docs/fediverse.md): followers, blocked
 * servers, the delivery log and the follower figures. The ActivityPub documents themselves are not
 * API routes: netlify/functions/fediverse.ts serves them.
 */
export const fediverseRoutes = {
  followers: declareRoute({
    method: "GET",
    path: apiPaths.fediverseFollowers,
    access: "admin",
    scope: "subscribers:read",
    summary: "The site's followers on the fediverse, newest first, 50 a page",
    query: followersQuerySchema,
    answers: { 200: jsonAnswer(followersPageSchema, "A page of followers") },
  }),
  removeFollower: declareRoute({
    method: "DELETE",
    path: apiPaths.fediverseFollower,
    access: "admin",
    scope: "subscribers:write",
    summary: "Removes a follower: posts are no longer delivered to them (they are not told; they may follow again)",
    params: rowIdParams("Follower not found"),
    answers: { 204: emptyAnswer("Removed") },
  }),
  blocks: declareRoute({
    method: "GET",
    path: apiPaths.fediverseBlocks,
    access: "admin",
    scope: "subscribers:read",
    summary: "The blocked servers, newest first",
    answers: { 200: jsonAnswer(blocksSchema, "The blocked servers") },
  }),
  block: declareRoute({
    method: "POST",
    path: apiPaths.fediverseBlocks,
    access: "admin",
    scope: "subscribers:write",
    summary:
      "Blocks a server: its followers are removed, its requests to the inbox are refused (403) and nothing is delivered to it. Blocking it again changes nothing",
    body: { type: "json", schema: blockInputSchema },
    answers: { 201: jsonAnswer(blockSchema, "The block") },
  }),
  unblock: declareRoute({
    method: "DELETE",
    path: apiPaths.fediverseBlock,
    access: "admin",
    scope: "subscribers:write",
    summary: "Lifts a server's block (its former followers must follow again)",
    params: blockParamsSchema,
    answers: { 204: emptyAnswer("Lifted") },
  }),
  deliveries: declareRoute({
    method: "GET",
    path: apiPaths.fediverseDeliveries,
    access: "admin",
    scope: "subscribers:read",
    summary:
      "The latest 200 deliveries of the site's activities (Create, Update, Delete of posts; Accept of follows), by state, and the servers given up on",
    query: deliveriesQuerySchema,
    answers: { 200: jsonAnswer(deliveriesSchema, "The deliveries and the dead servers") },
  }),
  stats: declareRoute({
    method: "GET",
    path: apiPaths.statsFediverse,
    access: "admin",
    scope: "stats:read",
    summary: "Followers at the end of each of the last 90 days, and each published post's likes, boosts and replies from the fediverse",
    answers: { 200: jsonAnswer(fediverseStatsSchema, "The figures") },
  }),
};
