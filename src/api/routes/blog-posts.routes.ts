import { z } from "zod";
import { postFormSchema, postImageSchema, postImageUploadSchema, postSchema } from "../../core/posts/post.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { maxListLimit } from "../../core/list-page.ts";
import { listPageQuery, rowIdParams } from "../params.schema.ts";

const postId = rowIdParams("Post not found");

export const blogPostsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.blogPosts,
    access: "session",
    scope: "content:read",
    shared: true,
    summary: "Published posts newest first with ?published=true (public); every post, drafts included, without it (admin)",
    query: z.object({
      published: z
        .string()
        .optional()
        .transform((value) => value === "true")
        .meta({ description: "`true`: only published posts; anything else needs an admin session" }),
      ...listPageQuery(maxListLimit),
    }),
    answers: { 200: jsonAnswer(z.array(postSchema), "The posts (one page of them with `limit`)") },
    errors: [401],
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.blogPosts,
    access: "admin",
    scope: "content:write",
    summary: "Creates a post",
    body: { type: "multipart", schema: postFormSchema },
    answers: { 201: jsonAnswer(postSchema, "The new post") },
    errors: [409],
  }),
  // Before `get`, whose `:id` would otherwise take "upload-image".
  uploadImage: declareRoute({
    method: "POST",
    path: apiPaths.blogPostImage,
    access: "admin",
    scope: "content:write",
    summary: "Stores an image for the editor and answers its URL",
    body: { type: "multipart", schema: postImageUploadSchema },
    answers: { 200: jsonAnswer(postImageSchema, "Where the image is served") },
  }),
  get: declareRoute({
    method: "GET",
    path: apiPaths.blogPost,
    access: "session",
    scope: "content:read",
    shared: true,
    summary: "One post; a draft only with an admin session (to anyone else it does not exist)",
    params: postId,
    answers: { 200: jsonAnswer(postSchema, "The post") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.blogPost,
    access: "admin",
    scope: "content:write",
    summary: "Changes a post; without a new featured image the current one is kept, and a new slug leaves the old one redirecting",
    params: postId,
    body: { type: "multipart", schema: postFormSchema },
    answers: { 200: jsonAnswer(postSchema, "The post as saved") },
    errors: [409],
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.blogPost,
    access: "admin",
    scope: "content:write",
    summary: "Deletes a post and its featured image",
    params: postId,
    answers: { 204: emptyAnswer("Deleted") },
  }),
};
