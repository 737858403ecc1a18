import { z } from "zod";

/** What the owner confirms before an import, stored as each imported person's consent wording. */
export const importConsentWording = "I confirm these people agreed to receive this newsletter.";

export const importConsentMissingMessage = "Please confirm that these people agreed to receive this newsletter.";

export const importFileMissingMessage = "Please select a CSV file to import.";

/**
 * The import form, shared by the dashboard and the server: the CSV file, the owner's confirmation
 * (a checkbox: `true` from the dashboard, `on` from a plain form) and whether the new people join the
 * welcome sequence (unticked: they do not).
 */
export const subscriberImportFormSchema = z.object({
  file: z.instanceof(File, { message: importFileMissingMessage }),
  consent: z.enum(["true", "on"], { error: importConsentMissingMessage }),
  /** "Send them the welcome sequence": imported people get it only when the owner ticks this. */
  welcome: z.enum(["true", "false", "on"]).optional(),
  /** Subscriber tags for everyone this import adds, comma-separated (each is also tagged `import:<date>`). */
  tags: z.string().max(2000, "Tags must be 2000 characters or less").optional(),
});

export type SubscriberImportFormInput = z.input<typeof subscriberImportFormSchema>;

/** The refused rows an import answer lists; the rest are only counted (`invalidCount`). */
export const listedInvalidRows = 100;

/**
 * What an import did: new addresses, addresses already there (or repeated), and rows refused —
 * the first `listedInvalidRows` of them with their line, and how many there were in all.
 */
export const subscriberImportResultSchema = z.object({
  imported: z.number().int(),
  skipped: z.number().int(),
  invalid: z.array(z.object({ line: z.number().int(), reason: z.string() })).max(listedInvalidRows),
  invalidCount: z.number().int(),
});

export type SubscriberImportResult = z.output<typeof subscriberImportResultSchema>;
