/**
 * `npm start`'s stand-in for a Netlify Scheduled Function: runs `tick` every `everyMs` in this
 * process, never two at once (a slow tick makes the next one wait, not overlap). A failed tick is
 * reported and the next one tries again. The timer does not keep the process alive.
 */
export function startTicker(
  everyMs: number,
  tick: () => Promise<void>,
  options: { onError: (error: unknown) => void; runAtStart?: boolean },
): { stop(): void } {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      await tick();
    } catch (error) {
      options.onError(error);
    } finally {
      running = false;
    }
  };
  if (options.runAtStart) void run();
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
