// `npm test`: the checks, vitest and Playwright started together, the browser tests at full priority
// and the rest niced beneath them (tests/support/run-scripts.ts). About a third of the browser tests'
// time is waiting on real time (a provider's pause, an outage, a site build), which the vitest files
// and the checks fill; niced, they take the CPU only when the browser tests leave it. One after
// the other the three took about 9 minutes on the 2-core CI machine, together 7.4 to 7.7 (decision 0098).
// vitest is niced by 3, not more: niced by 10 it missed real-time bounds of its own (a 30 s send).
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { memoryScratchFolder, runChecks, runScript } from "./support/run-scripts.ts";

// Every Node process of the run (the servers, their build workers, vitest's forks and the CLIs its
// tests start, the checks, Playwright's workers) keeps the V8 code of the modules it compiles on
// disk for the next one: about 60 processes load the same app, Astro, Vite and TypeScript.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("../node_modules/.cache/node-compile-cache", import.meta.url));

// The run's temporary files in memory where the machine has a memory-backed folder (Linux).
const scratch = memoryScratchFolder();
if (scratch) process.env.TMPDIR = scratch;

const [checks, unit, e2e] = await Promise.all([
  runChecks({ nice: 19 }),
  runScript("test:unit", { nice: 3 }).then((run) => run.passed),
  runScript("test:e2e", { live: true }).then((run) => run.passed),
]);
if (scratch) rmSync(scratch, { recursive: true, force: true });
process.exitCode = checks && unit && e2e ? 0 : 1;
