import { chmod, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { adminLoginLine, readLocalEnv } from "../../netlify/local/local-env.ts";
import { loadLocalSecrets, writePrivateFile } from "../../netlify/local/local-secrets.ts";

const secrets = { ADMIN_PASSWORD: "generated-password", ADMIN_PATH: "admin-abcdefgh", SESSION_SECRET: "s".repeat(40) };
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});
const scratch = async () => {
  const folder = await mkdtemp(path.join(tmpdir(), "nf-local-"));
  folders.push(folder);
  return folder;
};
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("finding 7: npm start keeps to this machine and to its owner", () => {
  it("listens on 127.0.0.1 unless HOST opens it", () => {
    expect(readLocalEnv({}, secrets).HOST).toBe("127.0.0.1");
    expect(readLocalEnv({ HOST: "0.0.0.0" }, secrets).HOST).toBe("0.0.0.0");
  });

  it("prints the admin password only when it was generated, never one the owner supplied", () => {
    const generated = readLocalEnv({}, secrets);
    expect(adminLoginLine(generated, {})).toBe("admin / generated-password (generated, kept in .netlify/local-secrets.json)");
    const supplied = readLocalEnv({ ADMIN_PASSWORD: "my own long password" }, secrets);
    const line = adminLoginLine(supplied, { ADMIN_PASSWORD: "my own long password" });
    expect(line).toBe("admin / (the ADMIN_PASSWORD you set)");
    expect(line).not.toContain("my own long password");
    expect(adminLoginLine(readLocalEnv({ ADMIN_PASSWORD_HASH: `scrypt$16384$8$1$${"a".repeat(22)}$${"b".repeat(43)}` }, secrets), {})).toBe(
      "admin / (from ADMIN_PASSWORD_HASH)",
    );
  });

  it("keeps the secrets file and local-server.json readable by the owner only, even one made before", async () => {
    const stateDir = await scratch();
    await loadLocalSecrets(stateDir);
    expect(await modeOf(path.join(stateDir, "local-secrets.json"))).toBe(0o600);
    await chmod(path.join(stateDir, "local-secrets.json"), 0o644);
    await loadLocalSecrets(stateDir);
    expect(await modeOf(path.join(stateDir, "local-secrets.json"))).toBe(0o600);

    const info = path.join(stateDir, "local-server.json");
    await writeFile(info, "{}", { mode: 0o644 });
    await writePrivateFile(info, '{ "siteUrl": "http://localhost:8888" }');
    expect(await modeOf(info)).toBe(0o600);
  });
});
