// `npm run check`: the format check, lint and typecheck, each run even when an earlier one fails,
// with a JSON report next to vitest's and Playwright's so `.ci/run` counts a failed check as a failure.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const projectRoot = fileURLToPath(new URL("..", import.meta.url));
const scripts = ["format:check", "lint", "typecheck"] as const;

interface CheckResult {
  script: (typeof scripts)[number];
  passed: boolean;
  seconds: number;
}

const results: CheckResult[] = scripts.map((script) => {
  const started = performance.now();
  console.log(`\n> npm run ${script}`);
  const run = spawnSync("npm", ["run", "--silent", script], { cwd: projectRoot, stdio: "inherit" });
  return { script, passed: run.status === 0, seconds: Math.round((performance.now() - started) / 100) / 10 };
});

const failed = results.filter((result) => !result.passed);
mkdirSync(new URL(".results/", import.meta.url), { recursive: true });
writeFileSync(
  new URL(".results/checks.json", import.meta.url),
  `${JSON.stringify({ numPassedChecks: results.length - failed.length, numFailedChecks: failed.length, results }, null, 2)}\n`,
);
console.log(`\nchecks: ${results.map((result) => `${result.script} ${result.passed ? "passed" : "FAILED"}`).join(", ")}`);
process.exitCode = failed.length > 0 ? 1 : 0;
