/**
 * The one kind of clock: the app reads time and waits through it, so a test drives both with a
 * fake one (tests/support/fake-clock.ts) instead of sleeping. A feature that only reads the time
 * declares `now: Clock["now"]`; one that waits declares `clock: Clock`.
 */
export interface Clock {
  now(): Date;
  sleep(ms: number): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms);
    }),
};
