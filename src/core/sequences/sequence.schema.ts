import { z } from "zod";
import { segmentExpressionSchema } from "../segments/segment.schema.ts";

/** A sequence's key: `welcome`, or `download-{resourceId}` for the one that follows a resource. */
export const sequenceKeySchema = z.string().regex(/^(welcome|download-[1-9]\d{0,9})$/, "Sequence not found");

/** Longest delay a step may wait after the previous one: a year. */
export const maxDelayMinutes = 366 * 24 * 60;

export const sequenceStepNotFoundMessage = "Step not found: save the sequence first, then send a test of the step";
export const sequenceSubjectMissingMessage = "Each step needs a subject.";
export const sequenceBodyMissingMessage = "Each step needs a body.";

/** One step as the dashboard saves it: an `id` keeps an existing step (and its figures), none makes a new one. */
export const sequenceStepInputSchema = z.object({
  id: z.number().int().positive().optional(),
  delayMinutes: z
    .number({ error: "The delay must be a whole number of minutes." })
    .int("The delay must be a whole number of minutes.")
    .min(0, "The delay cannot be negative.")
    .max(maxDelayMinutes, "The delay can be at most a year."),
  subject: z.string().trim().min(1, sequenceSubjectMissingMessage).max(200, "A subject can be at most 200 characters."),
  html: z.string().trim().min(1, sequenceBodyMissingMessage).max(500_000, "A step's body is too long."),
});

/** `PUT /api/sequences/{key}`: the whole sequence, its steps in order. */
export const sequenceUpdateSchema = z.object({
  enabled: z.boolean(),
  segment: z
    .union([z.literal(""), segmentExpressionSchema])
    .nullable()
    .optional()
    .transform((value) => (value === undefined ? undefined : value || null))
    .meta({ description: "Only people in this segment (docs/segments.md) get its steps; null or empty: everyone it starts for. Absent: unchanged" }),
  steps: z.array(sequenceStepInputSchema).max(50, "A sequence can have at most 50 steps."),
});

export type SequenceUpdate = Omit<z.output<typeof sequenceUpdateSchema>, "segment"> & { segment?: string | null | undefined };

/** `POST /api/sequences/{key}/preview`: a step's words as the editor holds them, saved or not. */
export const sequenceStepPreviewSchema = sequenceStepInputSchema.pick({ subject: true, html: true });

/** A step's email as it would be mailed: for the dashboard's Preview. */
export const sequenceStepPreviewAnswerSchema = z.object({ subject: z.string(), html: z.string(), text: z.string() });
export type SequenceStepInput = z.input<typeof sequenceStepInputSchema>;

export const sequenceStepSchema = z.object({
  id: z.number().int(),
  delayMinutes: z.number().int(),
  subject: z.string(),
  html: z.string(),
});

export const sequenceSchema = z.object({
  key: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  /** Only people in this segment get its steps (checked before each step); null: everyone it starts for. */
  segment: z.string().nullable(),
  steps: z.array(sequenceStepSchema),
});

export type Sequence = z.output<typeof sequenceSchema>;
export type SequenceStep = z.output<typeof sequenceStepSchema>;

/**
 * One step's figures: emails the SMTP server accepted, people who unsubscribed after this step
 * (before the next), and clicks on the step's links (every click, and the people who clicked).
 */
export const sequenceStepStatsSchema = z.object({
  stepId: z.number().int(),
  sent: z.number().int(),
  unsubscribed: z.number().int(),
  clicks: z.number().int(),
  uniqueClicks: z.number().int(),
});

export type SequenceStepStats = z.output<typeof sequenceStepStatsSchema>;
