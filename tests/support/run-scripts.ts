// How `npm test` and `npm run check` run their parts: each an npm script in a child process, at a
// niceness of its own, its output printed whole when it ends (or line by line as it comes), so two
// parts' outputs never interleave mid-line.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));

export interface ScriptRun {
  script: string;
  passed: boolean;
  seconds: number;
}

export interface ScriptOptions {
  /**
   * How much lower its CPU priority is than this process's (POSIX `nice`; 0, the default, is the
   * same): work that fills the idle CPU gives it up to work that waits on real time.
   */
  nice?: number;
  /** Its output line by line as it comes; by default whole, once it ends. */
  live?: boolean;
}

/** Runs `npm run <script>`, resolving (never rejecting) with whether it passed. */
export function runScript(script: string, options: ScriptOptions = {}): Promise<ScriptRun> {
  const started = performance.now();
  const nice = options.nice ?? 0;
  const [command, args] = nice > 0 && process.platform !== "win32" ? ["nice", ["-n", String(nice), "npm"]] : ["npm", []];
  return new Promise((resolve) => {
    const child = spawn(command, [...args, "run", "--silent", script], {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? "1" },
    });
    const output: Buffer[] = [];
    let partial = "";
    const take = (chunk: Buffer) => {
      if (!options.live) return void output.push(chunk);
      // Whole lines only: another part's output printed in between never splits one.
      const lines = (partial + chunk.toString()).split("\n");
      partial = lines.pop() ?? "";
      if (lines.length > 0) process.stdout.write(`${lines.join("\n")}\n`);
    };
    child.stdout.on("data", take);
    child.stderr.on("data", take);
    const done = (passed: boolean) => {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      const rest = options.live ? partial : Buffer.concat(output).toString();
      process.stdout.write(`\n> npm run ${script} (${String(seconds)} s)\n${rest}`);
      resolve({ script, passed, seconds });
    };
    child.on("error", () => done(false));
    child.on("close", (code) => done(code === 0));
  });
}

const checks = ["format:check", "lint", "typecheck"] as const;

/**
 * The format check, lint and typecheck, all three at once, each run whatever the others do, with a
 * JSON report next to vitest's and Playwright's so `.ci/run` counts a failed check as a failure.
 * Resolves with whether all three passed.
 */
export async function runChecks(options: Pick<ScriptOptions, "nice"> = {}): Promise<boolean> {
  const results = await Promise.all(checks.map((script) => runScript(script, options)));
  const failed = results.filter((result) => !result.passed);
  mkdirSync(new URL("../.results/", import.meta.url), { recursive: true });
  writeFileSync(
    new URL("../.results/checks.json", import.meta.url),
    `${JSON.stringify({ numPassedChecks: results.length - failed.length, numFailedChecks: failed.length, results }, null, 2)}\n`,
  );
  console.log(`\nchecks: ${results.map((result) => `${result.script} ${result.passed ? "passed" : "FAILED"}`).join(", ")}`);
  return failed.length === 0;
}

const memoryBacked = "/dev/shm";
const scratchPrefix = "no-filter-tests-";

/**
 * A scratch folder on a memory-backed filesystem (Linux's `/dev/shm`) for a run's temporary files,
 * or undefined where there is none or `TMPDIR` is already chosen. The tests write about 2 GB of
 * files nobody reads after the run (13 function bundles of 51 MB each, site builds, databases);
 * on the CI machine's disk, bundling the functions took 41 s and 31 s of kernel CPU, in memory
 * 21 s and 4 (decision 0098). Folders left by a run that was killed (its process gone) are removed.
 */
export function memoryScratchFolder(): string | undefined {
  if (process.env.TMPDIR || process.platform !== "linux" || !existsSync(memoryBacked)) return undefined;
  for (const name of readdirSync(memoryBacked)) {
    const pid = Number(name.slice(scratchPrefix.length).split("-")[0]);
    if (name.startsWith(scratchPrefix) && pid > 0 && !isRunning(pid)) rmSync(path.join(memoryBacked, name), { recursive: true, force: true });
  }
  return mkdtempSync(path.join(memoryBacked, `${scratchPrefix}${String(process.pid)}-`));
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
