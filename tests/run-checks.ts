// `npm run check`: the format check, lint and typecheck, all three at once (and, under `npm test`,
// beside vitest), each run whatever the others do, with a JSON report next to vitest's and
// Playwright's so `.ci/run` counts a failed check as a failure. Each check's output is printed
// whole when it ends, so the three never interleave.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const scripts = ["format:check", "lint", "typecheck"] as const;

interface CheckResult {
  script: (typeof scripts)[number];
  passed: boolean;
  seconds: number;
}

function runCheck(script: (typeof scripts)[number]): Promise<CheckResult> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script], {
      cwd: projectRoot,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, FORCE_COLOR: "1" },
    });
    const output: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => output.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => output.push(chunk));
    const done = (passed: boolean) => {
      const seconds = Math.round((performance.now() - started) / 100) / 10;
      process.stdout.write(`\n> npm run ${script} (${String(seconds)} s)\n${Buffer.concat(output).toString()}`);
      resolve({ script, passed, seconds });
    };
    child.on("error", () => done(false));
    child.on("close", (code) => done(code === 0));
  });
}

const results: CheckResult[] = await Promise.all(scripts.map(runCheck));

const failed = results.filter((result) => !result.passed);
mkdirSync(new URL(".results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL(".results/checks.json", import.meta.url),
  `${JSON.stringify({ numPassedChecks: results.length - failed.length, numFailedChecks: failed.length, results }, null, 2)}\n`,
);
console.log(`\nchecks: ${results.map((result) => `${result.script} ${result.passed ? "passed" : "FAILED"}`).join(", ")}`);
process.exitCode = failed.length > 0 ? 1 : 0;
