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
  if (!(error instanceof Error)) return undefined;
  if (error instanceof WebAuthnError) {
    if (error.code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED") return "This device already holds a passkey for this site.";
    if (error.code === "ERROR_INVALID_DOMAIN" || error.code === "ERROR_INVALID_RP_ID") {
      return "Passkeys work only on the site's own address (SITE_URL).";
    }
    const cause = error.cause instanceof Error ? error.cause.name : "";
    if (error.code === "ERROR_CEREMONY_ABORTED" || cause === "NotAllowedError" || cause === "AbortError") {
      return "The passkey prompt was cancelled or timed out.";
    }
    return error.message;
  }
  if (error.name === "NotAllowedError") return "The passkey prompt was cancelled or timed out.";
  if (/WebAuthn is not supported/i.test(error.message)) return "This browser does not support passkeys.";
  return undefined;
}
