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

/** Shortest password the dashboard accepts: the length `ADMIN_PASSWORD` must have (src/config/server-env.ts). */
export const minPasswordLength = 12;

/**
 * The dashboard's "Change password": the current password, or none when the owner signed in (a
 * passkey or the password) in the last 5 minutes; the new one twice in the form, once here.
 */
export const passwordChangeSchema = z.object({
  currentPassword: z.string().max(1000).optional(),
  newPassword: z
    .string({ error: "New password is required" })
    .min(minPasswordLength, `Use at least ${String(minPasswordLength)} characters.`)
    .max(1000, "Use at most 1000 characters."),
});

export type PasswordChange = z.output<typeof passwordChangeSchema>;

/** Where the owner's password comes from now (the Security tab says so). */
export const passwordStateSchema = z.object({
  /** `dashboard`: set in the Security tab; `environment`: ADMIN_PASSWORD_HASH or ADMIN_PASSWORD; `generated`: made up by npm start. */
  source: z.enum(["dashboard", "environment", "generated"]),
  /** Whether the environment sets ADMIN_PASSWORD_HASH: a new one set there wins over a password set here. */
  environmentHash: z.boolean(),
  changedAt: z.iso.datetime().nullable(),
});

export type PasswordState = z.output<typeof passwordStateSchema>;
