/**
 * `start` run on the first call and its promise kept for every later one, unless it fails: a failed
 * start (a missing variable, a database down) is not kept, so the next call tries again.
 */
export function keptUnlessFailed<T>(start: () => Promise<T>): () => Promise<T> {
  let kept: Promise<T> | undefined;
  return () =>
    (kept ??= Promise.resolve()
      .then(start)
      .catch((error: unknown) => {
        kept = undefined;
        throw error;
      }));
}
