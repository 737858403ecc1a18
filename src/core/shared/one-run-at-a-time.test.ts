import { describe, expect, it } from "vitest";
import { oneRunAtATime } from "./one-run-at-a-time.ts";

/** A run the test finishes by hand, counting how many started. */
function manualRuns() {
  const finishers: (() => void)[] = [];
  const run = () => new Promise<void>((resolve) => finishers.push(resolve));
  return { run, finishers, started: () => finishers.length };
}

describe("oneRunAtATime", () => {
  it("starts one run; calls during it share its promise and make it go round once more, not once each", async () => {
    const runs = manualRuns();
    const start = oneRunAtATime(runs.run);
    const first = start();
    const second = start();
    const third = start();
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(runs.started()).toBe(1);

    runs.finishers[0]?.();
    await Promise.resolve();
    await Promise.resolve();
    expect(runs.started()).toBe(2);
    let settled = false;
    void first.then(() => (settled = true));
    runs.finishers[1]?.();
    await first;
    expect(settled).toBe(true);
    expect(runs.started()).toBe(2);
  });

  it("a call after a run ended starts a new one", async () => {
    const runs = manualRuns();
    const start = oneRunAtATime(runs.run);
    const first = start();
    runs.finishers[0]?.();
    await first;
    const second = start();
    expect(second).not.toBe(first);
    expect(runs.started()).toBe(2);
    runs.finishers[1]?.();
    await second;
  });

  it("a run that throws ends its turn: the error reaches the callers and the next call starts afresh", async () => {
    let calls = 0;
    const start = oneRunAtATime(() => {
      calls += 1;
      return calls === 1 ? Promise.reject(new Error("database gone")) : Promise.resolve();
    });
    await expect(start()).rejects.toThrow("database gone");
    await start();
    expect(calls).toBe(2);
  });
});
