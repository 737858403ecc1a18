/**
 * A clock a test moves by hand: `now()` stands still until `advance`, and `sleep` resolves once
 * time has been advanced past its end. Code that takes `now`/`sleep` runs on it without waiting.
 */
export interface FakeClock {
  now: () => Date;
  /** Resolves once time is advanced past its end, or at once when `signal` aborts. */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Moves time on by `ms` and wakes every sleeper whose time has come. */
  advance(ms: number): void;
  /** How many sleeps are waiting (to know when the code under test has reached its wait). */
  sleeping(): number;
}

export function createFakeClock(start = new Date("2026-01-05T09:00:00Z")): FakeClock {
  let time = start.getTime();
  let sleepers: { until: number; wake: () => void }[] = [];
  return {
    now: () => new Date(time),
    sleep: (ms, signal) =>
      new Promise<void>((resolve) => {
        if (signal?.aborted) return resolve();
        const sleeper = { until: time + ms, wake: resolve };
        sleepers.push(sleeper);
        signal?.addEventListener(
          "abort",
          () => {
            sleepers = sleepers.filter((other) => other !== sleeper);
            resolve();
          },
          { once: true },
        );
      }),
    advance(ms) {
      time += ms;
      const due = sleepers.filter((sleeper) => sleeper.until <= time);
      sleepers = sleepers.filter((sleeper) => sleeper.until > time);
      for (const sleeper of due) sleeper.wake();
    },
    sleeping: () => sleepers.length,
  };
}
