import { z } from "zod";
import { emailEventProviders } from "./provider-events.ts";

/** `:provider` of `POST /api/email-events/{provider}`: a provider we do not know names nothing (404). */
export const emailEventsParams = z.object({
  provider: z.enum(emailEventProviders, { error: "Not found" }),
});

const fraction = z.number().min(0).meta({ description: "A fraction: 0.003 is 0.3 %" });

/** The list's health over the last 30 days: what Gmail and Yahoo judge a sender by. */
export const listHealthSchema = z.object({
  since: z.iso.datetime(),
  /** Messages accepted by the SMTP server in the window (newsletters and transactional), less hard bounces reported after. */
  delivered: z.number().int(),
  complained: z.number().int(),
  complaintRate: fraction,
  /** Gmail's and Yahoo's line for bulk senders: 0.003 (0.3 %). */
  complaintLimit: fraction,
  bounced: z.number().int(),
  bounceRate: fraction,
  /** The owner's thresholds at which a send pauses itself (Site Settings). */
  pauseAt: z.object({ complaintRate: fraction, bounceRate: fraction }),
  /** Subscribers who receive nothing because they bounced or complained. */
  suppressed: z.object({ bounced: z.number().int(), complained: z.number().int() }),
});

export type ListHealth = z.output<typeof listHealthSchema>;
