import { spawn } from "node:child_process";
import { mkdirSync, openSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { E2eServer } from "../playwright.config.ts";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

/** The environment of one browser-test server (its own port and state folder; each builds its site apart). */
export function serverEnv(server: E2eServer): NodeJS.ProcessEnv {
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
    // A paused send or outbox tries again after 40 s, not 1 minute (newsletter-send and
    // bounces-complaints waited the minute out in real time). 40, not 30: the outage test's first
    // Retry comes 20-25 s after the test email on a quiet machine, later under CI's load. The pause outlasts the catcher's
    // outage, so the dashboard shows it until the owner's Retry sends the test email (a Retry waits
    // 10 s for it: a shorter pause could deliver it between two Retries). The outage stays 20 s: a
    // send starts only once its post's page is built, 10 s after the test email was too soon.
    MAIL_CATCHER_OUTAGE_MS: "20000",
    PROVIDER_PAUSE_MS: "40000",
  };
}

/** A browser-test `npm start`: `ready` once it answers /api/health (it rejects, with the server's output, if it never does). */
export interface ServerProcess {
  server: E2eServer;
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts `npm start` for `server` with `env` (default `serverEnv`); its output goes to `server.log`
 * in its state folder, shown when it fails to start.
 */
export function startServerProcess(server: E2eServer, env: NodeJS.ProcessEnv = serverEnv(server)): ServerProcess {
  mkdirSync(server.stateDir, { recursive: true });
  const logFile = path.join(server.stateDir, "server.log");
  const log = openSync(logFile, "w");
  const child = spawn(process.execPath, ["netlify/local/start.ts"], { cwd: projectRoot, env, stdio: ["ignore", log, log] });
  const output = () => readFileSync(logFile, "utf8").slice(-20_000);
  const waitUntilHealthy = async () => {
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
  };
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return { server, ready: waitUntilHealthy(), stop };
}
