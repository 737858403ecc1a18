/**
 * The one kind of clock: the app reads time and waits through it, so a test drives both with a
 * fake one (tests/support/fake-clock.ts) instead of sleeping. A feature that only reads the time
 * declares `now: Clock["now"]`; one that waits declares `clock: Clock`.
 */
export interface Clock {
  now: () => Date;
  /** Resolves after `ms`, or at once when `signal` aborts (a timer that is stopped). */
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        resolve();
      }
    }),
};
