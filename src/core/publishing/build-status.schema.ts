import { z } from "zod";

/** Where the public site stands, as the dashboard shows it (build-status.ts says how it is known). */
export const buildStatusSchema = z.object({
  state: z.enum(["live", "building", "retrying"]),
  lastError: z.string().nullable(),
  builtAt: z.iso.datetime().nullable(),
  nextRetryAt: z.iso.datetime().nullable(),
});

export type BuildStatus = z.infer<typeof buildStatusSchema>;
export type BuildState = BuildStatus["state"];

/** The dashboard's words for each state. */
export const buildStatusTexts = {
  live: "Live",
  building: "Rebuilding the site…",
  retrying: "Site not yet rebuilt — retrying",
} as const satisfies Record<BuildState, string>;
