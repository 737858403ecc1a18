import { z } from "zod";

/** One thing a new site still holds from the demo, or at a default: where it is fixed, and whether it is. */
export const setupItemSchema = z.object({
  key: z.enum(["demo-content", "contact-email", "social-links", "postal-address", "admin-password", "site-url", "sending-domain"]),
  label: z.string(),
  done: z.boolean(),
  /** What is still a placeholder, in the owner's words (empty once done). */
  detail: z.string(),
  /** Where it is fixed: a dashboard tab and field (`#tab/field`), or a document. */
  fixAt: z.string(),
});

export const setupChecklistSchema = z.object({ items: z.array(setupItemSchema), done: z.number().int(), total: z.number().int() });

export const demoContentRemovedSchema = z.object({ posts: z.number().int(), resources: z.number().int() });

export type SetupItem = z.infer<typeof setupItemSchema>;
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;
