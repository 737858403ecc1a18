import { randomBytes } from "node:crypto";
import { previousSessionSecrets, type ServerEnv } from "../config/server-env.ts";
import { keyRing, type Signer } from "../core/shared/signer.ts";

// Without SESSION_SECRET (tests, a first local run) tokens are signed with a secret of this process:
// they still cannot be forged, they just stop working when the process restarts.
const processSecret = randomBytes(32).toString("base64url");

/**
 * The app's signer: a key ring that signs with SESSION_SECRET (or this process's own random secret)
 * and still accepts what the secrets of SESSION_SECRET_PREVIOUS signed, so a rotation breaks no link
 * already sent (each keeps its own expiry; an unsubscribe link has none).
 */
export function signerFor(env: Pick<ServerEnv, "SESSION_SECRET" | "SESSION_SECRET_PREVIOUS">): Signer {
  return keyRing([env.SESSION_SECRET ?? processSecret, ...previousSessionSecrets(env)]);
}
