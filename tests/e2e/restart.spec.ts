import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { restartServerPort } from "../playwright.config.ts";
import { localServerInfo } from "./local-server.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const port = restartServerPort;
const siteUrl = `http://localhost:${String(port)}`;

/** Runs `npm start` on its own port and state folder until it serves pages. */
async function startSite(stateDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ["netlify/local/start.ts"], {
    cwd: projectRoot,
    env: { ...process.env, PORT: String(port), LOCAL_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited:\n${output}`);
    const ready = await fetch(`${siteUrl}/`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return child;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error(`npm start was not ready in 60 s:\n${output}`);
}

async function stopSite(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

test("the database and the generated secrets survive a stop and start", async ({ page }) => {
  test.setTimeout(150_000);
  const stateDir = await mkdtemp(path.join(tmpdir(), "nf-restart-"));
  try {
    let site = await startSite(stateDir);
    const first = await localServerInfo(stateDir);
    const db = new pg.Client({ connectionString: first.databaseUrl });
    await db.connect();
    await db.query("INSERT INTO subscribers (email, source) VALUES ('kept@example.com', 'newsletter')");
    const posts = await db.query<{ count: number }>("SELECT count(*)::int AS count FROM posts");
    await db.end();
    await stopSite(site);

    site = await startSite(stateDir);
    const second = await localServerInfo(stateDir);
    expect(second.adminUrl).toBe(first.adminUrl);
    const again = new pg.Client({ connectionString: second.databaseUrl });
    await again.connect();
    const kept = await again.query("SELECT email FROM subscribers WHERE email = 'kept@example.com'");
    const postsAfter = await again.query<{ count: number }>("SELECT count(*)::int AS count FROM posts");
    await again.end();
    expect(kept.rows).toHaveLength(1);
    // Not seeded a second time.
    expect(postsAfter.rows[0]?.count).toBe(posts.rows[0]?.count);
    const response = await page.goto(`${siteUrl}/`);
    expect(response?.status()).toBe(200);
    await stopSite(site);
  } finally {
    await rm(stateDir, { recursive: true, force: true });
  }
});
