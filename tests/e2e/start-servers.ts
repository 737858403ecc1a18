import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { e2eServers, type E2eServer } from "../playwright.config.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The environment of one browser-test server (its own port and state folder; each builds its site apart). */
function serverEnv(server: E2eServer): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PORT: String(server.port),
    LOCAL_STATE_DIR: server.stateDir,
    // No SMTP_URL even if the shell has one: the tests' mail goes to the local catcher, never out.
    SMTP_URL: "",
    // The bounce and complaint webhook the browser test posts to (e2e/bounces-complaints.spec.ts).
    POSTMARK_WEBHOOK_AUTH: "e2e-hooks:postmark-e2e-password",
    // An import test serves the old blog's images from loopback.
    IMPORT_ALLOW_PRIVATE_HOSTS: "1",
    // Every spec signs up from 127.0.0.1 against its server: some 20 signups in 10 minutes passed the
    // per-address limit (10) and the next signup got a 429. The limits themselves are tested in vitest.
    RATE_LIMIT_MULTIPLIER: "10",
  };
}

async function waitUntilHealthy(server: E2eServer, child: ChildProcess, output: () => string): Promise<void> {
  // A few seconds on a quiet machine; minutes when the machine is shared.
  const deadline = Date.now() + 600_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start on port ${String(server.port)} exited:\n${output()}`);
    const ok = await fetch(`http://localhost:${String(server.port)}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`npm start on port ${String(server.port)} was not ready in 600 s:\n${output()}`);
}

/**
 * Playwright's global setup: every browser-test server at once (Playwright's own `webServer` list
 * starts them one after another, each first build waiting for the last), ready when all answer;
 * the returned teardown stops them.
 */
export default async function startServers(): Promise<() => Promise<void>> {
  const children = e2eServers.map((server) => {
    mkdirSync(server.stateDir, { recursive: true });
    // Its output goes to a file in its state folder, shown when it fails to start.
    const logFile = path.join(server.stateDir, "server.log");
    const log = openSync(logFile, "w");
    const child = spawn(process.execPath, ["netlify/local/start.ts"], { cwd: projectRoot, env: serverEnv(server), stdio: ["ignore", log, log] });
    const output = () => readFileSync(logFile, "utf8").slice(-20_000);
    return { server, child, output };
  });
  const stop = async () => {
    await Promise.all(
      children.map(async ({ child }) => {
        if (child.exitCode !== null) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        await exited;
        clearTimeout(timer);
      }),
    );
  };
  try {
    await Promise.all(children.map(({ server, child, output }) => waitUntilHealthy(server, child, output)));
  } catch (error) {
    await stop();
    throw error;
  }
  return stop;
}
