import { z } from "zod";
import { loginAnswerSchema } from "../../core/auth/login.schema.ts";
import {
  loginOptionsSchema,
  passkeyLoginSchema,
  passkeyRegistrationSchema,
  passkeyRenameSchema,
  passkeyRequirementSchema,
  passkeySchema,
  recoveryCodeLoginSchema,
  recoveryCodesSchema,
  registrationOptionsSchema,
  securityStateSchema,
} from "../../core/auth/passkey.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const passkeyParams = rowIdParams("This passkey no longer exists.");

/** The owner's passkeys, the "Require a passkey" setting, recovery codes, and the logins they allow. */
export const passkeysRoutes = {
  loginOptions: declareRoute({
    method: "POST",
    path: apiPaths.passkeyLoginOptions,
    access: "public",
    summary: "A single-use challenge (5 minutes) for signing in with a passkey",
    answers: { 200: jsonAnswer(loginOptionsSchema, "Options for navigator.credentials.get") },
    errors: [429],
  }),
  login: declareRoute({
    method: "POST",
    path: apiPaths.passkeyLogin,
    access: "public",
    summary: "Signs in with a passkey's answer to the challenge: sets the session cookie (never held up by failed passwords)",
    body: { type: "json", schema: passkeyLoginSchema },
    answers: { 200: jsonAnswer(loginAnswerSchema, "Logged in; the session cookie is set") },
    errors: [401, 429],
  }),
  recoveryCodeLogin: declareRoute({
    method: "POST",
    path: apiPaths.recoveryCodeLogin,
    access: "public",
    summary: "Completes a password login with a one-time recovery code in place of the passkey",
    body: { type: "json", schema: recoveryCodeLoginSchema },
    answers: { 200: jsonAnswer(loginAnswerSchema, "Logged in; the session cookie is set and the code is used up") },
    errors: [401, 429],
  }),
  security: declareRoute({
    method: "GET",
    path: apiPaths.security,
    access: "admin",
    scope: "none",
    summary: "The owner's passkeys, whether a password login needs one, and how many recovery codes are left",
    answers: { 200: jsonAnswer(securityStateSchema, "The Security area's state") },
  }),
  registrationOptions: declareRoute({
    method: "POST",
    path: apiPaths.passkeyRegistrationOptions,
    access: "admin",
    scope: "none",
    summary: "A single-use challenge (5 minutes) for registering a new passkey (needs a sign-in from the last 5 minutes)",
    answers: { 200: jsonAnswer(registrationOptionsSchema, "Options for navigator.credentials.create") },
  }),
  register: declareRoute({
    method: "POST",
    path: apiPaths.passkeyRegistration,
    access: "admin",
    scope: "none",
    summary: "Registers the passkey the browser created for the challenge, under a name (needs a sign-in from the last 5 minutes)",
    body: { type: "json", schema: passkeyRegistrationSchema },
    answers: { 201: jsonAnswer(passkeySchema, "The passkey as registered") },
  }),
  rename: declareRoute({
    method: "PUT",
    path: apiPaths.passkey,
    access: "admin",
    scope: "none",
    summary: "Renames a passkey",
    params: passkeyParams,
    body: { type: "json", schema: passkeyRenameSchema },
    answers: { 200: jsonAnswer(passkeySchema, "The passkey as renamed") },
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.passkey,
    access: "admin",
    scope: "none",
    summary: "Removes a passkey (not the last one while a passkey is required; needs a sign-in from the last 5 minutes)",
    params: passkeyParams,
    answers: { 204: emptyAnswer("Removed") },
  }),
  requirement: declareRoute({
    method: "PUT",
    path: apiPaths.passkeyRequirement,
    access: "admin",
    scope: "none",
    summary: "Turns “Require a passkey” on (needs a passkey and recovery codes) or off (needs a sign-in from the last 5 minutes)",
    body: { type: "json", schema: passkeyRequirementSchema },
    answers: { 200: jsonAnswer(z.object({ required: z.boolean() }), "The setting as saved") },
  }),
  recoveryCodes: declareRoute({
    method: "POST",
    path: apiPaths.recoveryCodes,
    access: "admin",
    scope: "none",
    summary: "Replaces the recovery codes with ten new one-time codes, shown only in this answer (needs a sign-in from the last 5 minutes)",
    answers: { 201: jsonAnswer(recoveryCodesSchema, "The new codes (stored hashed)") },
  }),
};
