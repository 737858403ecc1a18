import { z } from "zod";
import { audienceCountSchema, audienceRequestSchema, savedSegmentSchema, segmentFormSchema } from "../../core/segments/segment.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const segmentId = rowIdParams("Segment not found");

/** Audiences (issue 42 point 5): the count before a send, and saved segments. The grammar: docs/segments.md. */
export const segmentsRoutes = {
  audience: declareRoute({
    method: "POST",
    path: apiPaths.newsletterAudience,
    access: "admin",
    scope: "subscribers:read",
    summary:
      "How many people a send to this audience would be fixed for now: active subscribers on every-post emails (weekly readers get the digest), in the segment when one is given (400 naming the position of a mistake, or an unknown topic or tag)",
    body: { type: "json", schema: audienceRequestSchema },
    answers: { 200: jsonAnswer(audienceCountSchema, "The count") },
  }),
  list: declareRoute({
    method: "GET",
    path: apiPaths.segments,
    access: "admin",
    scope: "subscribers:read",
    summary: "The saved segments by name",
    answers: { 200: jsonAnswer(z.array(savedSegmentSchema), "The saved segments") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.segments,
    access: "admin",
    scope: "subscribers:write",
    summary: "Saves a segment under a name (400 for an expression that does not parse or names an unknown topic or tag; 409 when the name is taken)",
    body: { type: "json", schema: segmentFormSchema },
    answers: { 201: jsonAnswer(savedSegmentSchema, "The saved segment") },
    errors: [409],
  }),
  get: declareRoute({
    method: "GET",
    path: apiPaths.segment,
    access: "admin",
    scope: "subscribers:read",
    summary: "One saved segment",
    params: segmentId,
    answers: { 200: jsonAnswer(savedSegmentSchema, "The saved segment") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.segment,
    access: "admin",
    scope: "subscribers:write",
    summary: "Changes a saved segment's name or expression; sends already made keep the expression they were made with",
    params: segmentId,
    body: { type: "json", schema: segmentFormSchema },
    answers: { 200: jsonAnswer(savedSegmentSchema, "The segment as saved") },
    errors: [409],
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.segment,
    access: "admin",
    scope: "subscribers:write",
    summary: "Deletes a saved segment; sends made with it keep their expression",
    params: segmentId,
    answers: { 204: emptyAnswer("Deleted") },
  }),
};
