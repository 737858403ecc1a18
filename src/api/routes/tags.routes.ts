import { z } from "zod";
import { tagFormSchema, tagSchema, tagSlugParams } from "../../core/posts/tag.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";

export const tagsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.tags,
    access: "public",
    shared: true,
    summary: "Every tag by name, with how many published posts carry it",
    answers: { 200: jsonAnswer(z.array(tagSchema), "The tags") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.tags,
    access: "admin",
    scope: "content:write",
    summary: "Adds a tag; without a slug, one is made from the name",
    body: { type: "json", schema: tagFormSchema },
    answers: { 201: jsonAnswer(tagSchema, "The new tag") },
    errors: [409],
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.tag,
    access: "admin",
    scope: "content:write",
    summary: "Changes a tag; a new slug leaves the old list address redirecting (301) to the new one",
    params: tagSlugParams,
    body: { type: "json", schema: tagFormSchema },
    answers: { 200: jsonAnswer(tagSchema, "The tag as saved") },
    errors: [409],
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.tag,
    access: "admin",
    scope: "content:write",
    summary: "Deletes a tag; the posts that carried it stay",
    params: tagSlugParams,
    answers: { 204: emptyAnswer("Deleted") },
  }),
};
