import { createHash } from "node:crypto";
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from "@simplewebauthn/server";
import type { SqlExecutor } from "../db/sql-executor.ts";
import type { Clock } from "../shared/clock.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import type { AdminCredentials } from "./admin-credentials.ts";
import { takeRateLimit } from "../rate-limit.ts";
import { AppError, NotFoundError, UnauthorizedError, ValidationError } from "../errors.ts";
import { trustedDevice } from "./device-cookies.ts";
import { consumeChallenge, storeChallenge } from "./passkey-challenges.ts";
import type { Passkey } from "./passkey.schema.ts";
import { relyingParty } from "./relying-party.ts";

/** What passkeys need: the database, the clock, the owner's login, the site they are bound to, and the signer (device cookies). */
export interface PasskeyDeps {
  db: SqlExecutor;
  now: Clock["now"];
  admin: AdminCredentials;
  site: Site;
  signer: Signer;
}
type Deps = PasskeyDeps;

/**
 * The signature algorithms a passkey may use: EdDSA, ES256, RS256 (COSE -8, -7, -257), what
 * authenticators make. Named here rather than left to the library's default, which probes Node's
 * experimental Web Crypto for ML-DSA and prints an ExperimentalWarning into the server's log.
 */
const supportedAlgorithmIDs = [-8, -7, -257];

export const passkeyOptionsLimit = { bucket: "passkey-login-options", max: 30, windowMs: 15 * 60 * 1000 };

interface PasskeyRow {
  id: number;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** What the dashboard shows of a passkey (never its key). */
const shown = (row: Pick<PasskeyRow, "id" | "name" | "created_at" | "last_used_at">): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at?.toISOString() ?? null,
});

const transportsOf = (row: Pick<PasskeyRow, "transports">) => (row.transports ? row.transports.split(",") : []);

/** The one owner's WebAuthn user handle: stable, and revealing nothing (not the username itself). */
function userHandle(username: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash("sha256").update(`no-filter admin\0${username}`).digest().subarray(0, 16));
}

export async function listPasskeys(deps: Pick<Deps, "db">): Promise<Passkey[]> {
  const { rows } = await deps.db.query<PasskeyRow>("SELECT id, name, created_at, last_used_at FROM admin_passkeys ORDER BY created_at, id");
  return rows.map(shown);
}

/**
 * Options for the browser to create a passkey: a discoverable credential (so it can sign in with
 * no username) with user verification required; passkeys already registered are excluded.
 */
export async function passkeyRegistrationOptions(deps: Deps): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const rp = relyingParty(deps.site);
  const { rows } = await deps.db.query<Pick<PasskeyRow, "credential_id" | "transports">>("SELECT credential_id, transports FROM admin_passkeys");
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: deps.admin.username,
    userDisplayName: "No Filter owner",
    userID: userHandle(deps.admin.username),
    attestationType: "none",
    excludeCredentials: rows.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
    supportedAlgorithmIDs,
  });
  await storeChallenge(deps, options.challenge, "registration");
  return options;
}

/** Checks the browser's new credential against a live registration challenge (used up) and stores it. */
export async function registerPasskey(deps: Deps, input: { name: string; response: RegistrationResponseJSON }): Promise<Passkey> {
  const rp = relyingParty(deps.site);
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => consumeChallenge(deps, challenge, "registration"),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: true,
      supportedAlgorithmIDs,
    });
  } catch (error) {
    // Ours (the database unavailable while using the challenge up) keep their status; the
    // library's reasons name internals (challenges, flags): the owner can only try again.
    if (error instanceof AppError) throw error;
    throw new ValidationError("The passkey could not be registered. Please try again.");
  }
  if (!verified.verified) throw new ValidationError("The passkey could not be registered. Please try again.");
  const { credential } = verified.registrationInfo;
  const { rows } = await deps.db.query<PasskeyRow>(
    `INSERT INTO admin_passkeys (credential_id, public_key, counter, transports, name, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (credential_id) DO NOTHING
     RETURNING id, name, created_at, last_used_at`,
    [
      credential.id,
      Buffer.from(credential.publicKey).toString("base64url"),
      credential.counter,
      (credential.transports ?? []).join(","),
      input.name,
      deps.now(),
    ],
  );
  const row = rows[0];
  if (!row) throw new ValidationError("This passkey is already registered.");
  return shown(row);
}

export async function renamePasskey(deps: Pick<Deps, "db">, id: number, name: string): Promise<Passkey> {
  const { rows } = await deps.db.query<PasskeyRow>("UPDATE admin_passkeys SET name = $2 WHERE id = $1 RETURNING id, name, created_at, last_used_at", [
    id,
    name,
  ]);
  const row = rows[0];
  if (!row) throw new NotFoundError("This passkey no longer exists.");
  return shown(row);
}

/**
 * Removes a passkey. While a password login needs a passkey, the last one stays (removing it would
 * leave only the recovery codes): turn the requirement off first.
 */
export async function deletePasskey(deps: Pick<Deps, "db">, id: number): Promise<void> {
  await deps.db.transaction(async (tx) => {
    // Locks the settings row: a concurrent "Require a passkey" waits for this removal, and sees it.
    const security = await tx.query<{ passkey_required: boolean }>("SELECT passkey_required FROM admin_security WHERE id = 1 FOR UPDATE");
    const removed = await tx.query("DELETE FROM admin_passkeys WHERE id = $1 RETURNING id", [id]);
    if (removed.rows.length === 0) throw new NotFoundError("This passkey no longer exists.");
    const left = await tx.query<{ n: number }>("SELECT count(*)::int AS n FROM admin_passkeys");
    if (security.rows[0]?.passkey_required && left.rows[0]?.n === 0) {
      throw new ValidationError("This is your last passkey and a passkey is required: turn off “Require a passkey” first.");
    }
  });
}

/**
 * Options for signing in with a passkey alone: any discoverable credential of this site, verified
 * user. Anyone may ask, and each answer stores a challenge: a generous per-client limit bounds the
 * table. A browser with a valid device cookie (device-cookies.ts) is counted under that cookie, so
 * no one else at its address can use its allowance up.
 */
export async function passkeyLoginOptions(deps: Deps, clientIp: string, deviceCookie?: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const device = trustedDevice(deps, deviceCookie, deps.admin.username);
  await takeRateLimit(deps, passkeyOptionsLimit, device ? `device:${device}` : clientIp);
  const options = await generateAuthenticationOptions({ rpID: relyingParty(deps.site).id, userVerification: "required" });
  await storeChallenge(deps, options.challenge, "login");
  return options;
}

/**
 * Checks a passkey's signature over a live login challenge (used up whatever the outcome). The
 * library refuses a signature counter that did not go up when either counter is non-zero (a cloned
 * authenticator); authenticators that keep no counter report 0 every time and pass. Throws 401.
 */
export async function verifyPasskeyLogin(deps: Deps, response: AuthenticationResponseJSON): Promise<void> {
  const rp = relyingParty(deps.site);
  const { rows } = await deps.db.query<PasskeyRow>(
    "SELECT id, credential_id, public_key, counter::float8 AS counter, transports FROM admin_passkeys WHERE credential_id = $1",
    [response.id],
  );
  const row = rows[0];
  if (!row) {
    // Still use the challenge up, so it can't be tried again with another credential.
    await consumeChallengeOf(deps, response);
    throw new UnauthorizedError("This passkey is not registered here.");
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => consumeChallenge(deps, challenge, "login"),
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: row.credential_id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, "base64url")),
        counter: row.counter,
        transports: transportsOf(row),
      },
      requireUserVerification: true,
    });
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new UnauthorizedError("The passkey could not be verified. Please try again.");
  }
  if (!verified.verified) throw new UnauthorizedError("The passkey could not be verified. Please try again.");
  await deps.db.query("UPDATE admin_passkeys SET counter = $2, last_used_at = $3 WHERE id = $1", [
    row.id,
    verified.authenticationInfo.newCounter,
    deps.now(),
  ]);
}

async function consumeChallengeOf(deps: Deps, response: AuthenticationResponseJSON): Promise<void> {
  try {
    const clientData = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString("utf8")) as { challenge?: unknown };
    if (typeof clientData.challenge === "string") await consumeChallenge(deps, clientData.challenge, "login");
  } catch {
    // Not a client data JSON: there is no challenge to use up.
  }
}
