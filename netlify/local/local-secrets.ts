import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

/** Secrets generated once for a local install and kept (git-ignored) so they survive restarts. */
export interface LocalSecrets {
  ADMIN_PASSWORD: string;
  ADMIN_PATH: string;
  SESSION_SECRET: string;
}

const token = (bytes: number) => randomBytes(bytes).toString("base64url");

/**
 * Reads `<stateDir>/local-secrets.json`, generating whatever is missing. Values already in the
 * environment win and are not written.
 */
export async function loadLocalSecrets(stateDir: string): Promise<{ secrets: LocalSecrets; generated: (keyof LocalSecrets)[] }> {
  const file = path.join(stateDir, "local-secrets.json");
  let stored: Partial<LocalSecrets> = {};
  try {
    stored = JSON.parse(await readFile(file, "utf8")) as Partial<LocalSecrets>;
    // A file written by an older version may be readable by others: it holds the admin password.
    await chmod(file, 0o600);
  } catch {
    // First start: nothing stored yet.
  }
  const generated: (keyof LocalSecrets)[] = [];
  const pick = (key: keyof LocalSecrets, make: () => string): string => {
    const value = stored[key];
    if (value) return value;
    generated.push(key);
    return make();
  };
  const secrets: LocalSecrets = {
    ADMIN_PASSWORD: pick("ADMIN_PASSWORD", () => token(12)),
    ADMIN_PATH: pick("ADMIN_PATH", () => `admin-${token(9).replace(/[^A-Za-z0-9]/g, "x")}`),
    SESSION_SECRET: pick("SESSION_SECRET", () => token(32)),
  };
  if (generated.length > 0) {
    await mkdir(stateDir, { recursive: true });
    await writePrivateFile(file, `${JSON.stringify(secrets, null, 2)}\n`);
  }
  return { secrets, generated };
}

/** Writes a file only its owner may read or write (`mode` applies on creation only, so chmod too). */
export async function writePrivateFile(file: string, content: string): Promise<void> {
  await writeFile(file, content, { mode: 0o600 });
  await chmod(file, 0o600);
}
