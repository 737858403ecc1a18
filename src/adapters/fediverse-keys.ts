import { exportJwk, generateCryptoKeyPair, importJwk } from "@fedify/fedify";
import type { SqlQueryable } from "../core/db/sql-executor.ts";
import type { Clock } from "../core/shared/clock.ts";

/**
 * The site actor's key pairs (table `fediverse_keys`), made once on first use: RSASSA-PKCS1-v1_5
 * signs draft-cavage HTTP Signatures (what Mastodon verifies), Ed25519 the Object Integrity Proofs
 * (FEP-8b32), as Fedify recommends. Made with Web Crypto through Fedify; never leave the database.
 */
const algorithms = { rsa: "RSASSA-PKCS1-v1_5", ed25519: "Ed25519" } as const;

export async function siteKeyPairs(deps: { db: SqlQueryable; now: Clock["now"] }): Promise<CryptoKeyPair[]> {
  const pairs: CryptoKeyPair[] = [];
  for (const [name, algorithm] of Object.entries(algorithms)) {
    let { rows } = await deps.db.query<{ private_jwk: JsonWebKey; public_jwk: JsonWebKey }>(
      "SELECT private_jwk, public_jwk FROM fediverse_keys WHERE algorithm = $1",
      [name],
    );
    if (!rows[0]) {
      const made = await generateCryptoKeyPair(algorithm);
      // Two instances may make one at once: the first stored wins, and both read it back.
      await deps.db.query(
        "INSERT INTO fediverse_keys (algorithm, private_jwk, public_jwk, created_at) VALUES ($1, $2::jsonb, $3::jsonb, $4) ON CONFLICT (algorithm) DO NOTHING",
        [name, JSON.stringify(await exportJwk(made.privateKey)), JSON.stringify(await exportJwk(made.publicKey)), deps.now()],
      );
      ({ rows } = await deps.db.query("SELECT private_jwk, public_jwk FROM fediverse_keys WHERE algorithm = $1", [name]));
    }
    const row = rows[0];
    if (!row) throw new Error(`the ${name} key pair was not stored`);
    pairs.push({ privateKey: await importJwk(row.private_jwk, "private"), publicKey: await importJwk(row.public_jwk, "public") });
  }
  return pairs;
}
