// `npm run check`: the format check, lint and typecheck, all three at once (tests/support/run-scripts.ts).
import { runChecks } from "./support/run-scripts.ts";

process.exitCode = (await runChecks()) ? 0 : 1;
