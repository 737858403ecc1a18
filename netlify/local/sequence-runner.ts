import type { AppDeps } from "../../src/app/app-deps.ts";
import { runDueSequenceSteps } from "../../src/core/sequences/sequences.service.ts";
import { startTicker } from "./ticker.ts";

/**
 * How often `npm start` queues due sequence steps. Shorter than production's minute: a step with no
 * delay follows the one before it within seconds, which is what a person trying it locally expects.
 */
export const sequenceTickMs = 5000;

/**
 * `npm start`'s stand-in for the run-sequences Scheduled Function: the same run on a timer, from
 * the start (steps that fell due while the server was down go out now, once). The mail runner's
 * tick delivers what it queued.
 */
export function startSequenceRunner(deps: Pick<AppDeps, "db" | "now" | "site">, options: { log: (line: string) => void }): { stop(): void } {
  return startTicker(
    sequenceTickMs,
    async () => {
      const run = await runDueSequenceSteps(deps);
      if (run.queued > 0) options.log(`Sequences: ${String(run.queued)} steps queued`);
    },
    {
      runAtStart: true,
      onError: (error) => console.error("[sequences] A sequences run failed; retrying on the next tick:", error),
    },
  );
}
