// `npm test`: the checks, vitest and Playwright started together, the browser tests at full priority
// and the rest niced beneath them (tests/support/run-scripts.ts). About a third of the browser tests'
// time is waiting on real time (a provider's pause, an outage, a site build), which the vitest files
// and the checks fill; niced, they take the CPU only when the browser tests leave it. One after
// the other the three took about 9 minutes on the 2-core CI machine; together (decision 0098).
import { runChecks, runScript } from "./support/run-scripts.ts";

const [checks, unit, e2e] = await Promise.all([
  runChecks({ nice: 19 }),
  runScript("test:unit", { nice: 3 }).then((run) => run.passed),
  runScript("test:e2e", { live: true }).then((run) => run.passed),
]);
process.exitCode = checks && unit && e2e ? 0 : 1;
