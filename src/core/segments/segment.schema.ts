import { z } from "zod";

/** The longest expression kept (the column's limit, migration 0043). */
export const segmentMaxLength = 2000;

/** An expression of the segment grammar (docs/segments.md), checked against it by the service. */
export const segmentExpressionSchema = z
  .string({ error: "Segment must be an expression (docs/segments.md) or a saved segment's id" })
  // Not trimmed: a mistake's position counts from the first character the owner typed.
  .min(1, "Segment must not be empty")
  .max(segmentMaxLength, `A segment is at most ${String(segmentMaxLength)} characters`);

/** A send's or a count's audience: an expression, or a saved segment's id. */
export const audienceSegmentSchema = z
  .union([
    z
      .number()
      .int("A saved segment's id is a whole number")
      .positive("A saved segment's id is a whole number")
      .max(2_147_483_647, "No such saved segment"),
    segmentExpressionSchema,
  ])
  .meta({ description: "An expression of the segment grammar (docs/segments.md), or a saved segment's id; absent: everyone" });

/** The body of `POST /api/newsletter/audience`. */
export const audienceRequestSchema = z.object({ segment: audienceSegmentSchema.optional() });

export const audienceCountSchema = z.object({
  count: z.number().int().meta({ description: "Active subscribers on every-post emails in the segment now: whom a send started now would fix" }),
});

/** A saved segment as the owner writes it (`POST /api/segments`, `PUT /api/segments/{id}`). */
export const segmentFormSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .transform((value) => value.replace(/\s+/g, " ").trim())
    .pipe(z.string().min(1, "Name is required").max(80, "Name must be 80 characters or less")),
  segment: segmentExpressionSchema,
});

export const savedSegmentSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  segment: z.string().meta({ description: "The expression (docs/segments.md)" }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});

export type SegmentForm = z.output<typeof segmentFormSchema>;
export type SavedSegment = z.output<typeof savedSegmentSchema>;
