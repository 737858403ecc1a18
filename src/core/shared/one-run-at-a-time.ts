/**
 * Wraps a run (a drain of a queue) so one goes at a time: a call while a run is going returns that
 * run's promise and asks it to go round once more when it ends, since what the caller just queued
 * may have come after the run's last look. Under load this turns a run per request (each claiming a
 * row or two, then asking an empty queue and its pause once more: four statements a signup) into
 * one run that claims whole batches (docs/decisions/0043-signups-under-load.md).
 */
export function oneRunAtATime(run: () => Promise<unknown>): () => Promise<void> {
  let current: Promise<void> | undefined;
  let again = false;
  const loop = async () => {
    try {
      do {
        again = false;
        await run();
      } while (again);
    } finally {
      current = undefined;
    }
  };
  return () => {
    if (current) {
      again = true;
      return current;
    }
    current = loop();
    return current;
  };
}
