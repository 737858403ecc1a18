/** Starts and stops `npm start` for the benchmark, in a state folder of its own. */
import { spawn, type ChildProcess } from "node:child_process";
import { openSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface LocalSite {
  child: ChildProcess;
  /** From spawning the process to the first page served. */
  readyMs: number;
}

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The server's output goes here (outside the state folder, which the benchmark removes). */
export const serverLogPath = path.join(tmpdir(), "nf-bench-server.log");

export async function startLocalSite(siteUrl: string, stateDir: string, env: Record<string, string> = {}): Promise<LocalSite> {
  const started = performance.now();
  const logFile = openSync(serverLogPath, "a");
  const child = spawn(process.execPath, ["netlify/local/start.ts"], {
    cwd: projectRoot,
    env: { ...process.env, ...env, PORT: new URL(siteUrl).port, LOCAL_STATE_DIR: stateDir },
    stdio: ["ignore", logFile, logFile],
  });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${String(child.exitCode)} (is port ${new URL(siteUrl).port} free?)`);
    if (
      await fetch(siteUrl).then(
        (response) => response.ok,
        () => false,
      )
    )
      break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { child, readyMs: performance.now() - started };
}

export function stopLocalSite(site: LocalSite): Promise<void> {
  if (site.child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    site.child.once("exit", () => resolve());
    site.child.kill("SIGTERM");
  });
}

export async function readAdminPassword(stateDir: string): Promise<string> {
  const secrets = JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-secrets.json"), "utf8")) as { ADMIN_PASSWORD: string };
  return secrets.ADMIN_PASSWORD;
}
