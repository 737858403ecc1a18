import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";
import { z } from "zod";
import { passwordStateSchema } from "./login.schema.ts";

/** What a browser's WebAuthn call hands back, roughly: the library checks the rest. */
const credentialShape = (value: unknown): boolean => {
  if (!value || typeof value !== "object") return false;
  const credential = value as { id?: unknown; type?: unknown; response?: unknown };
  return (
    typeof credential.id === "string" && credential.id.length <= 1024 && credential.type === "public-key" && typeof credential.response === "object"
  );
};

/** `navigator.credentials.create` options, as @simplewebauthn/server makes them. */
export const registrationOptionsSchema = z.custom<PublicKeyCredentialCreationOptionsJSON>();
/** `navigator.credentials.get` options, as @simplewebauthn/server makes them. */
export const loginOptionsSchema = z.custom<PublicKeyCredentialRequestOptionsJSON>();

export const passkeyNameSchema = z
  .string({ error: "Name the passkey" })
  .trim()
  .min(1, "Name the passkey (e.g. the device it is on)")
  .max(60, "A passkey's name is at most 60 characters");

/** A new passkey: what the browser created, and the owner's name for it. */
export const passkeyRegistrationSchema = z.object({
  name: passkeyNameSchema,
  response: z.custom<RegistrationResponseJSON>(credentialShape, "Not a passkey registration"),
});

/** A passkey's signature over a login challenge. */
export const passkeyLoginSchema = z.object({
  response: z.custom<AuthenticationResponseJSON>(credentialShape, "Not a passkey answer"),
});

/** "Confirm it's you" (recent-sign-in.ts): the password, or a passkey's signature over a login challenge. */
export const reauthenticationSchema = z.union([
  z.object({ password: z.string({ error: "Password is required" }).min(1, "Password is required").max(1000) }),
  passkeyLoginSchema,
]);

export const passkeyRenameSchema = z.object({ name: passkeyNameSchema });

/** A registered passkey as the dashboard shows it. */
export const passkeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable(),
});
export type Passkey = z.output<typeof passkeySchema>;

/** The Security area: passkeys, whether a password login needs one, and recovery codes left. */
export const securityStateSchema = z.object({
  passkeys: z.array(passkeySchema),
  passkeyRequired: z.boolean(),
  recoveryCodesLeft: z.number().int(),
  /** Where the password comes from, and whether the environment's hash can win over one set here. */
  password: passwordStateSchema,
});
export type SecurityState = z.output<typeof securityStateSchema>;

export const passkeyRequirementSchema = z.object({ required: z.boolean({ error: "Say whether a passkey is required" }) });

/** Ten new recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ codes: z.array(z.string()) });

/** The second step of a password login with a recovery code in place of the passkey. */
export const recoveryCodeLoginSchema = z.object({
  code: z.string({ error: "Enter a recovery code" }).trim().min(1, "Enter a recovery code").max(100, "That is not a recovery code"),
});
