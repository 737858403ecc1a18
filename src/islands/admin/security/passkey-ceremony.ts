import { startAuthentication, startRegistration, WebAuthnError } from "@simplewebauthn/browser";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/browser";
import { passkeysRoutes } from "../../../api/routes/passkeys.routes.ts";
import { callApi } from "../api-client.ts";

/** The browser's side of registering a passkey: the server's challenge, then the authenticator. */
export async function createPasskey(): Promise<RegistrationResponseJSON> {
  const optionsJSON = await callApi(passkeysRoutes.registrationOptions);
  return startRegistration({ optionsJSON });
}

/** The browser's side of signing in with a passkey: the server's challenge, then the authenticator's signature. */
export async function signWithPasskey(): Promise<AuthenticationResponseJSON> {
  const optionsJSON = await callApi(passkeysRoutes.loginOptions);
  return startAuthentication({ optionsJSON });
}

/** What went wrong in the browser, in the owner's words; undefined for a server's answer. */
export function ceremonyFailure(error: unknown): string | undefined {
  if (error instanceof WebAuthnError || (error instanceof Error && error.name === "NotAllowedError")) {
    return "The passkey prompt was cancelled or timed out.";
  }
  if (error instanceof Error && /WebAuthn is not supported/i.test(error.message)) return "This browser does not support passkeys.";
  return undefined;
}
