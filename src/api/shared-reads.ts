/**
 * Anonymous reads of public data (published posts, resources, settings) are the same for every
 * visitor, so one process answers them once and shares the answer for a moment: requests that
 * arrive together wait for one database read, and those in the next `ttlMs` get its copy. A write
 * in this process clears everything at once, so the owner and the visitor who just downloaded see
 * their own change; another function instance's write shows here after at most `ttlMs`.
 *
 * Why: under concurrent visitors the same list was read from the database once per request, and
 * requests queued behind each other (figures: docs/decisions/0006-shared-reads.md).
 */
export interface SharedReads {
  /** The shared answer for `key`, loading it with `load` when there is none fresh. */
  answer(key: string, load: () => Promise<Response>): Promise<Response>;
  /** Forgets every answer: called after any successful write. */
  clear(): void;
  /** How many answers are held. */
  size(): number;
}

export interface SharedReadsOptions {
  /** The most answers held at once; the oldest go first. */
  maxEntries?: number;
}

interface StoredAnswer {
  status: number;
  headers: [string, string][];
  body: ArrayBuffer;
}

export function createSharedReads(ttlMs: number, now: () => number = () => performance.now(), options: SharedReadsOptions = {}): SharedReads {
  const maxEntries = options.maxEntries ?? 500;
  const answers = new Map<string, { expires: number; stored: Promise<StoredAnswer> }>();
  /** Drops what expired, then the oldest while over the cap (a Map keeps insertion order). */
  const prune = () => {
    const time = now();
    for (const [key, entry] of answers) if (entry.expires <= time) answers.delete(key);
    for (const key of answers.keys()) {
      if (answers.size < maxEntries) break;
      answers.delete(key);
    }
  };

  const store = async (response: Response): Promise<StoredAnswer> => ({
    status: response.status,
    headers: [...response.headers],
    body: await response.arrayBuffer(),
  });
  // A Response copies the bytes it is given, so one stored body serves every replay.
  const replay = ({ status, headers, body }: StoredAnswer) => new Response(body, { status, headers });

  return {
    async answer(key, load) {
      if (ttlMs <= 0) return load();
      const held = answers.get(key);
      if (held && held.expires > now()) return replay(await held.stored);

      prune();
      const entry = { expires: Number.POSITIVE_INFINITY, stored: load().then(store) };
      answers.set(key, entry);
      try {
        const stored = await entry.stored;
        // Only a success is shared; the clock starts when the answer is ready. A clear() while it
        // loaded has already dropped the entry, so a read that began before a write is not kept.
        if (stored.status >= 200 && stored.status < 300) entry.expires = now() + ttlMs;
        else if (answers.get(key) === entry) answers.delete(key);
        return replay(stored);
      } catch (error) {
        if (answers.get(key) === entry) answers.delete(key);
        throw error;
      }
    },
    clear() {
      answers.clear();
    },
    size: () => answers.size,
  };
}
