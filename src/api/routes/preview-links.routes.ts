import { z } from "zod";
import { previewLinkRequestSchema, previewLinkSchema } from "../../core/posts/preview-link.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

export const previewLinksRoutes = {
  create: declareRoute({
    method: "POST",
    path: apiPaths.blogPostPreviewLinks,
    access: "admin",
    scope: "content:write",
    summary: "Makes a signed preview link of a draft or scheduled post, valid 1 to 720 hours; a published post answers 409",
    params: rowIdParams("Post not found"),
    body: { type: "json", schema: previewLinkRequestSchema },
    answers: { 201: jsonAnswer(previewLinkSchema, "The new link") },
    errors: [409],
  }),
  list: declareRoute({
    method: "GET",
    path: apiPaths.blogPostPreviewLinks,
    access: "admin",
    scope: "content:read",
    summary: "A post's preview links, newest first, expired ones included",
    params: rowIdParams("Post not found"),
    answers: { 200: jsonAnswer(z.array(previewLinkSchema), "The links") },
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.previewLink,
    access: "admin",
    scope: "content:write",
    summary: "Revokes a preview link: its address answers 410 from then on",
    params: rowIdParams("Preview link not found"),
    answers: { 204: emptyAnswer("Revoked") },
  }),
};
