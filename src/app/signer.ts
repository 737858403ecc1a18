import { randomBytes } from "node:crypto";
import type { ServerEnv } from "../config/server-env.ts";
import { keyRing, type Signer } from "../core/shared/signer.ts";

// Without SESSION_SECRET (tests, a first local run) tokens are signed with a secret of this process:
// they still cannot be forged, they just stop working when the process restarts.
const processSecret = randomBytes(32).toString("base64url");

/** The app's signer: a key ring over SESSION_SECRET (or this process's own random secret). */
export function signerFor(env: Pick<ServerEnv, "SESSION_SECRET">): Signer {
  return keyRing([env.SESSION_SECRET ?? processSecret]);
}
