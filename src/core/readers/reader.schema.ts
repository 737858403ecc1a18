import { z } from "zod";
import { emailSchema } from "../subscribers/subscriber.schema.ts";

/** `POST /api/readers/sign-in`. */
export const readerSignInSchema = z.object({ email: emailSchema }, { error: "Email is required" });

/** The 6 digits of a sign-in email, typed as they are written (spaces a reader adds are dropped). */
export const signInCodeSchema = z
  .string({ error: "Enter the 6-digit code from the email." })
  .transform((code) => code.replace(/\s+/g, ""))
  .pipe(z.string().regex(/^\d{6}$/, "Enter the 6-digit code from the email."));

/** `POST /api/readers/sign-in/verify`: the link's token, or the address and the code. */
export const readerVerifySchema = z.union(
  [
    z.object({ token: z.string().min(1, "The sign-in link is not valid.").max(200, "The sign-in link is not valid.") }).strict(),
    z.object({ email: emailSchema, code: signInCodeSchema }).strict(),
  ],
  { error: "Send the link's token, or your email and the 6-digit code." },
);

export const displayNameMaxLength = 50;

/** A display name: plain text on one line, 1–50 characters once trimmed. */
export const displayNameSchema = z
  .string({ error: "Name is required" })
  .transform((name) => name.normalize("NFC").replace(/\s+/g, " ").trim())
  .pipe(
    z
      .string()
      .min(1, "Name is required")
      .max(displayNameMaxLength, `Name can be at most ${String(displayNameMaxLength)} characters.`)
      .regex(/^[^<>\p{Cc}]*$/u, "Name can't contain < or >."),
  );

/** `PUT /api/readers/me`. */
export const readerNameSchema = z.object({ name: displayNameSchema }, { error: "Name is required" });

/** `PUT /api/readers/me/reply-notices`: reply emails on or off, from the reader's page. */
export const readerReplyNoticesSchema = z.object({ on: z.boolean({ error: "on must be true or false" }) }, { error: "on is required" });

/** `GET /api/readers/me`: the signed-in reader. */
export const readerSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  /** The display name, null until they choose one. */
  name: z.string().nullable(),
  status: z.enum(["pending", "active", "unsubscribed", "bounced", "complained"]),
  /** When this browser's session ends. */
  sessionExpiresAt: z.iso.datetime(),
  /** Their "Choose what you get" page (topics and how often, issue 42), signed for them as every email's link is. */
  preferencesUrl: z.string(),
  /** Whether they get an email when someone replies to their comment (a notice's one-click unsubscribe turns it off). */
  replyNotices: z.boolean(),
});

export type Reader = z.output<typeof readerSchema>;
