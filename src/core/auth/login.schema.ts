import { z } from "zod";

/** The login form, in the browser and on the server. */
export const loginSchema = z.object({
  username: z.string({ error: "Username is required" }).trim().min(1, "Username is required").max(100),
  password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000),
});

export type LoginInput = z.output<typeof loginSchema>;

/** Whether the request carries a live admin session. */
export const sessionStateSchema = z.object({ authenticated: z.boolean() });

/**
 * A password login's answer: logged in, or (with "Require a passkey" on) not yet — the password
 * was right and `secondStep` asks for a passkey or a recovery code.
 */
export const loginAnswerSchema = sessionStateSchema.extend({ secondStep: z.literal("passkey").optional() });

/** The `code` of the 403 a security change gets without a sign-in in the last 5 minutes (recent-sign-in.ts). */
export const recentSignInRequiredCode = "recent_sign_in_required";

/** A fresh sign-in inside a live session, before a security change (recent-sign-in.ts): when it was recorded. */
export const reauthenticationAnswerSchema = z.object({ signedInAt: z.iso.datetime() });
