import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import type { SqlQueryable } from "../../src/core/db/sql-executor.ts";

/**
 * A passkey made in the test process: a real P-256 key whose public half is stored as registration
 * would store it, and which signs login challenges as an authenticator does (WebAuthn §6.1, §6.3.3).
 * The server verifies its answers with the same library and checks as a browser's: no mock.
 */
export interface SoftwarePasskey {
  credentialId: string;
  /** Answers a login challenge as `navigator.credentials.get` would, for `origin` (the site). */
  answer(challenge: string, origin: string): AuthenticationResponseJSON;
}

/** COSE_Key (RFC 9053) of an EC2 P-256 ES256 public key, CBOR-encoded by hand: {1:2, 3:-7, -1:1, -2:x, -3:y}. */
function coseKey(publicKey: KeyObject): Buffer {
  const jwk = publicKey.export({ format: "jwk" });
  const x = Buffer.from(jwk.x ?? "", "base64url");
  const y = Buffer.from(jwk.y ?? "", "base64url");
  return Buffer.concat([Buffer.from([0xa5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]), x, Buffer.from([0x22, 0x58, 0x20]), y]);
}

/** Registers a new software passkey for the site (as `registerPasskey` stores one) and returns it. */
export async function registerSoftwarePasskey(db: SqlQueryable, name: string, now: Date): Promise<SoftwarePasskey> {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const credentialId = randomBytes(16).toString("base64url");
  await db.query("INSERT INTO admin_passkeys (credential_id, public_key, name, created_at) VALUES ($1, $2, $3, $4)", [
    credentialId,
    coseKey(publicKey).toString("base64url"),
    name,
    now,
  ]);
  let counter = 0;
  return {
    credentialId,
    answer(challenge, origin) {
      counter += 1;
      const clientDataJSON = Buffer.from(JSON.stringify({ type: "webauthn.get", challenge, origin, crossOrigin: false }));
      const counterBytes = Buffer.alloc(4);
      counterBytes.writeUInt32BE(counter);
      // rpIdHash, flags UP|UV (user present and verified), signature counter.
      const rpIdHash = createHash("sha256").update(new URL(origin).hostname).digest();
      const authenticatorData = Buffer.concat([rpIdHash, Buffer.from([0x05]), counterBytes]);
      const signed = Buffer.concat([authenticatorData, createHash("sha256").update(clientDataJSON).digest()]);
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          authenticatorData: authenticatorData.toString("base64url"),
          signature: sign("sha256", signed, privateKey).toString("base64url"),
        },
        clientExtensionResults: {},
      };
    },
  };
}
