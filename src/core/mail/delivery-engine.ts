import type { SqlQueryable } from "../db/sql-executor.ts";
import { AppError } from "../errors.ts";
import type { Clock } from "../shared/clock.ts";
import { classifyDeliveryFailure, providerStreak, replyWithoutAddress, retryDelayMs, type DeliveryFailure } from "./delivery-failure.ts";

/**
 * The delivery engine (README.md beside this file; docs/decisions/0044-one-delivery-engine.md): one
 * leased queue for every kind of delivery. A kind's rows live in a table of their own with the
 * queue's columns (`id`, `status`, `lease_until`, `attempts`, `last_error`); the engine claims them
 * under a lease with `FOR UPDATE SKIP LOCKED`, keeps the lease alive while they are on their way,
 * settles each (sent only once accepted, failed, retried later, skipped), gives rows back untouched
 * when the provider fails as a whole, and pauses the kind. Decisions 0015, 0020, 0026, 0027, 0043.
 */

/** The tables the engine delivers from: a new kind adds its table here. */
export type DeliveryTable = "outbox" | "newsletter_recipients" | "webhook_deliveries" | "websub_pings" | "fediverse_deliveries";

/** What every claimed row carries. */
export interface LeasedRow {
  id: number;
  /** How many times the row was handed over, this claim included. */
  attempts: number;
  /** The lease this claim set: the row is the worker's until then (or until a renewal extends it). */
  leaseUntil: Date;
}

/** How a kind's claim picks and reads its rows (SQL over the table, aliased `q`). */
export interface ClaimShape {
  table: DeliveryTable;
  /** A further condition on due rows (a paused kind, a send not running), over parameters from `$4`. */
  due?: string;
  params?: unknown[];
  /** Columns of `q` the picked rows carry, for `join` (`picked.<column>`). */
  pick?: string[];
  /** Tables joined to the picked rows, e.g. `LEFT JOIN subscribers s ON s.id = picked.subscriber_id`. */
  join?: string;
  /** What the claim answers besides `id` and `attempts` (columns of `q` and of `join`). */
  returning: string;
}

/**
 * Hands up to `size` pending rows to the caller for `leaseMs`: rows another worker is claiming right
 * now are passed over (SKIP LOCKED), rows under a live lease or waiting for a retry are left alone,
 * rows whose lease ran out (a dead worker) are claimable again. Oldest first; time is the caller's clock.
 */
export async function claimLeased<Raw extends object>(
  deps: { db: SqlQueryable; now: Clock["now"] },
  shape: ClaimShape,
  size: number,
  leaseMs: number,
): Promise<(Raw & { id: number; attempts: number; leaseUntil: Date })[]> {
  const now = deps.now();
  const leaseUntil = new Date(now.getTime() + leaseMs);
  const picked = ["id", ...(shape.pick ?? [])].map((column) => `q.${column}`).join(", ");
  const { rows } = await deps.db.query<Raw & { id: number | string; attempts: number }>(
    `WITH picked AS (
       SELECT ${picked} FROM ${shape.table} q
        WHERE q.status = 'pending' AND (q.lease_until IS NULL OR q.lease_until <= $1)${shape.due ? ` AND ${shape.due}` : ""}
        ORDER BY q.id LIMIT $2
        FOR UPDATE OF q SKIP LOCKED
     )
     UPDATE ${shape.table} q SET lease_until = $3, attempts = q.attempts + 1
       FROM picked ${shape.join ?? ""}
      WHERE q.id = picked.id
     RETURNING q.id, q.attempts, ${shape.returning}`,
    [now, size, leaseUntil, ...(shape.params ?? [])],
  );
  return rows.map((row) => ({ ...row, id: Number(row.id), leaseUntil })).sort((a, b) => a.id - b.id);
}

/** The verbs every delivery table shares; each touches only rows still pending (a settled row stays settled). */
export function leasedRows(table: DeliveryTable) {
  return {
    /**
     * Extends the lease of rows a worker still holds: pending, and leased until exactly `heldUntil`
     * (the lease this worker set). A row another worker took over after the lease ran out, one
     * settled, or one given a retry time keeps what it has. Answers how many were extended.
     */
    renew: async (db: SqlQueryable, ids: number[], heldUntil: Date, leaseUntil: Date): Promise<number> => {
      if (ids.length === 0) return 0;
      const { rows } = await db.query<{ id: number }>(
        `UPDATE ${table} SET lease_until = $3 WHERE id = ANY($1::bigint[]) AND status = 'pending' AND lease_until = $2 RETURNING id`,
        [ids, heldUntil, leaseUntil],
      );
      return rows.length;
    },
    /** Given up: a permanent refusal, or transient ones past the kind's retry policy; the reply is kept. */
    fail: async (db: SqlQueryable, id: number, reason: string): Promise<void> => {
      await db.query(`UPDATE ${table} SET status = 'failed', lease_until = NULL, last_error = $2 WHERE id = $1 AND status = 'pending'`, [id, reason]);
    },
    /** A transient failure: the row stays pending, leased until `retryAt`, when any worker may try again. */
    retry: async (db: SqlQueryable, id: number, reason: string, retryAt: Date): Promise<void> => {
      await db.query(`UPDATE ${table} SET lease_until = $2, last_error = $3 WHERE id = $1 AND status = 'pending'`, [id, retryAt, reason]);
    },
    /** Nothing to send any more (the person left): settled without a hand-over. */
    skip: async (db: SqlQueryable, ids: number[]): Promise<void> => {
      if (ids.length === 0) return;
      await db.query(`UPDATE ${table} SET status = 'skipped', lease_until = NULL WHERE id = ANY($1::bigint[]) AND status = 'pending'`, [ids]);
    },
    /**
     * Rows a provider failure interrupted go back as they were before their claim: pending, free to
     * claim, the hand-over not counted (an outage must not use up a row's retries), and a failure
     * the pause found to be the provider's (a run of identical refusals) undone.
     */
    giveBack: async (db: SqlQueryable, ids: number[]): Promise<void> => {
      if (ids.length === 0) return;
      await db.query(
        `UPDATE ${table} SET status = 'pending', lease_until = NULL, last_error = NULL, attempts = GREATEST(attempts - 1, 0)
          WHERE id = ANY($1::bigint[]) AND status IN ('pending', 'failed')`,
        [ids],
      );
    },
  };
}

/** A kind's retry policy: when a transient failure is the last, and how long until the next try. */
export interface RetryPolicy<Row extends LeasedRow> {
  lastTry: (row: Row, now: Date) => boolean;
  /** Default: 1, 2, 4, 8… minutes, at most 30 (`retryDelayMs`). */
  delayMs?: (attempts: number) => number;
}

/** Gives up after `attempts` hand-overs (the newsletter: 5). */
export function giveUpAfterAttempts<Row extends LeasedRow>(attempts: number): RetryPolicy<Row> {
  return { lastTry: (row) => row.attempts >= attempts };
}

/** Gives up once a row is `ms` old (the outbox: 24 hours). */
export function giveUpAfterAge<Row extends LeasedRow & { createdAt: Date }>(ms: number): RetryPolicy<Row> {
  return { lastTry: (row, now) => now.getTime() - row.createdAt.getTime() >= ms };
}

/**
 * What a kind of delivery declares (README.md, "Shape"). `Receipt` is what a hand-over answers and
 * the sent mark records (a Message-ID, a subject).
 */
export interface DeliveryKind<Row extends LeasedRow, Receipt> {
  table: DeliveryTable;
  /** Claims up to `size` due rows for `leaseMs` (with `claimLeased`). */
  claim: (size: number, leaseMs: number) => Promise<Row[]>;
  /** Rows settled at the claim as skipped, never handed over (someone who left since the row was written). */
  skipAtClaim?: (row: Row) => boolean;
  /**
   * Hands one row over and resolves once it was accepted. An `AppError` is the row's own refusal (a
   * post unpublished, an address suppressed): the row fails with its message, and it says nothing
   * about the provider. Anything else is read by `classify`.
   */
  deliver: (row: Row) => Promise<Receipt>;
  /** Reads a failed hand-over. Default: SMTP (`classifyDeliveryFailure`). */
  classify?: (error: unknown) => DeliveryFailure;
  /** Marks an accepted row sent; resolves once written (group commit: one statement for the marks that arrive together). */
  markSent: (row: Row, receipt: Receipt) => Promise<void>;
  retry: RetryPolicy<Row>;
  /** Who a row goes to: the same refusal for five different recipients in a row is the provider's. */
  address: (row: Row) => string;
  /** A permanent refusal that says the address does not exist (a bounce, heard at once). */
  onUnknownRecipient?: (row: Row, failure: DeliveryFailure) => Promise<void>;
  /** The kind's provider pause: its reason while it runs, pausing (1, 2, 2… minutes), and the first acceptance ending it. */
  pause: {
    now: () => Promise<string | null>;
    start: (reason: string) => Promise<void>;
    end: () => Promise<void>;
  };
  /**
   * Checked after each claim: a reason to hold every row back before anything is sent (the seeded
   * postal address in production). The hook pauses the kind itself, for as long as it chooses.
   */
  holdBack?: () => Promise<string | undefined>;
  /**
   * Read before each hand-over: a reason the rows claimed must not go out any more (the owner paused
   * or cancelled the send, its figures paused it, another run paused it for the provider), or
   * undefined to go on. Someone else decides it, so it is read fresh: each hand-over waits for a
   * read that started after its slot's previous hand-over was answered (one read at a time, shared
   * by the slots waiting), so at most `concurrency` messages go out after a stop; once one answers
   * a reason, nothing more is handed over and the rows not yet handed over go back (decision 0058).
   * Keep it one cheap query.
   */
  stopped?: () => Promise<string | undefined>;
}

export interface EngineOptions {
  /** Hand-overs at once (the transport's pool size). Default 5. */
  concurrency?: number;
  /** Rows claimed at a time; the next batch is claimed while the last rows of one are on their way. Default `concurrency`. */
  batchSize?: number;
  /** How long a claimed batch is the worker's; renewed every half lease while its rows are delivered. Default 2 minutes. */
  leaseMs?: number;
  /** Stop claiming once this time has passed (a function's budget). */
  stopClaimingAt?: Date | undefined;
}

export interface EngineRun {
  sent: number;
  failed: number;
  skipped: number;
  retried: number;
  /** Set when the run paused the kind (or found it paused): the reason, with no address in it. */
  paused?: string;
  /** Set when `stopped` answered a reason while the run worked: what it said. Rows not handed over went back. */
  stopped?: string;
}

/** What the engine itself needs: the database, and the clock (its `sleep` renews a lease while one message hangs). */
export interface EngineDeps {
  db: SqlQueryable;
  now: Clock["now"];
  clock?: Pick<Clock, "now" | "sleep"> | undefined;
}

/** A hand-over's end: settled, or given back because the provider failed (`paused`), with the failure. */
type Delivered = { outcome: "sent" | "failed" | "retried" | "paused"; failure?: DeliveryFailure };

/**
 * Keeps a batch's lease alive while it is delivered: once half the lease has passed on the app's
 * clock, the rows the worker still holds are leased again for `leaseMs`. Checked before each
 * hand-over and, with a clock that sleeps, every `leaseMs / 4` (for a single message that hangs).
 */
function holdBatch(deps: EngineDeps, rows: LeasedRow[], renew: ReturnType<typeof leasedRows>["renew"], leaseMs: number, onDone: () => void) {
  let heldUntil = (rows[0] as LeasedRow).leaseUntil;
  let renewing: Promise<void> | null = null;
  let unsettled = rows.length;
  const renewIfDue = (): Promise<void> => {
    if (renewing) return renewing;
    if (deps.now().getTime() < heldUntil.getTime() - leaseMs / 2) return Promise.resolve();
    const leaseUntil = new Date(deps.now().getTime() + leaseMs);
    renewing = renew(
      deps.db,
      rows.map((row) => row.id),
      heldUntil,
      leaseUntil,
    )
      .then(() => {
        heldUntil = leaseUntil;
      })
      .finally(() => {
        renewing = null;
      });
    return renewing;
  };
  const stopped = new AbortController();
  const clock = deps.clock;
  if (clock) {
    void (async () => {
      while (!stopped.signal.aborted) {
        await clock.sleep(Math.max(250, leaseMs / 4), stopped.signal);
        if (stopped.signal.aborted) return;
        await renewIfDue().catch((error: unknown) => {
          console.warn("[delivery] lease renewal failed:", error);
        });
      }
    })();
  }
  return {
    renewIfDue,
    /** One row settled; the lease keeper stops with the last. */
    settled() {
      if (--unsettled > 0) return;
      stopped.abort();
      onDone();
    },
    /** The run is over (rows left unsettled keep their lease until it runs out). */
    stop: () => stopped.abort(),
  };
}

/**
 * A read shared by whoever asks while it runs, yet never older than the asking: a caller gets the
 * read under way if there is none (a new one), else the next one, started once the one under way
 * ends and shared by everyone who asked meanwhile. So each answer was read after its caller asked,
 * with at most one read at a time (the slots of a run ask together: one query serves them all).
 */
export function freshReads<T>(read: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let next: Promise<T> | null = null;
  const start = () => {
    const started = read().finally(() => {
      if (running === started) running = null;
    });
    running = started;
    return started;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .catch(() => undefined)
      .then(() => {
        next = null;
        return start();
      });
    return next;
  };
}

/**
 * One bounded run of a kind: claims batches under a lease and delivers them with `concurrency`
 * hand-overs at once, claiming the next batch while the last rows of one are on their way, until
 * nothing is claimable now or `stopClaimingAt` passes. Any number of runs may overlap (each row
 * goes to one of them); a run that dies leaves its rows to be claimed again once the lease runs out.
 */
export async function runDeliveries<Row extends LeasedRow, Receipt>(
  deps: EngineDeps,
  kind: DeliveryKind<Row, Receipt>,
  options: EngineOptions = {},
): Promise<EngineRun> {
  const concurrency = Math.max(1, options.concurrency ?? 5);
  const batchSize = options.batchSize ?? concurrency;
  const leaseMs = options.leaseMs ?? 120_000;
  const rows = leasedRows(kind.table);
  const classify = kind.classify ?? classifyDeliveryFailure;
  const run: EngineRun = { sent: 0, failed: 0, skipped: 0, retried: 0 };
  // The deadline is read before the first await, as the outbox's loop always did: a run started in
  // time claims at least once, however long the pause check below takes (or a clock moves meanwhile).
  let startedInTime = !options.stopClaimingAt || deps.now() < options.stopClaimingAt;
  const pastDeadline = () => {
    const inTime = startedInTime;
    startedInTime = false;
    return !inTime && options.stopClaimingAt !== undefined && deps.now() >= options.stopClaimingAt;
  };
  const pausedAlready = await kind.pause.now();
  if (pausedAlready !== null) return { ...run, paused: pausedAlready };

  type Held = ReturnType<typeof holdBatch>;
  const queue: { row: Row; batch: Held }[] = [];
  // Batches with rows not yet settled: a settled batch is let go, so a run holds at most two.
  const held = new Set<Held>();
  let exhausted = false;
  let failure: { error: unknown } | undefined;
  let claiming: Promise<void> | null = null;
  // Set once the provider failed as a whole: the slots stop, and what is left goes back pending.
  let pausedFor: string | undefined;
  // Set when `holdBack` kept a claim back: the kind paused itself.
  let heldBack: string | undefined;
  let resumed = false;
  // Set once `stopped` answered a reason: the slots stop before their next hand-over.
  let stoppedFor: string | undefined;
  const stillGoing = kind.stopped ? freshReads(kind.stopped) : undefined;
  // The same refusal for recipient after recipient is the provider's (a suspended account, say).
  const streak = providerStreak<number>();
  // Unknown-recipient refusals not yet heard: they wait while they may still be the start of such a
  // streak (a provider answering "550 5.1.1" to everyone), so a streak that trips bounces nobody.
  let unheard: { row: Row; failure: DeliveryFailure }[] = [];
  const hear = async (entries: { row: Row; failure: DeliveryFailure }[]) => {
    for (const { row, failure } of entries) await kind.onUnknownRecipient?.(row, failure);
  };

  const deliverOne = async (row: Row, handedOver: () => void): Promise<Delivered> => {
    let receipt: Receipt;
    try {
      receipt = await kind.deliver(row).finally(handedOver);
    } catch (error) {
      if (error instanceof AppError) {
        await rows.fail(deps.db, row.id, error.message);
        return { outcome: "failed" };
      }
      const failure = classify(error);
      if (failure.kind === "provider") {
        await rows.giveBack(deps.db, [row.id]);
        return { outcome: "paused", failure };
      }
      const now = deps.now();
      if (failure.kind === "permanent" || kind.retry.lastTry(row, now)) {
        await rows.fail(deps.db, row.id, failure.reason);
        return { outcome: "failed", failure };
      }
      await rows.retry(deps.db, row.id, failure.reason, new Date(now.getTime() + (kind.retry.delayMs ?? retryDelayMs)(row.attempts)));
      return { outcome: "retried", failure };
    }
    await kind.markSent(row, receipt);
    return { outcome: "sent" };
  };

  // What one hand-over tells about the provider: a success ends a pause; a provider failure, or the
  // last of a run of identical refusals (whose rows go back pending), pauses the kind.
  const learn = async (row: Row, { outcome, failure }: Delivered) => {
    if (outcome === "paused") {
      pausedFor ??= failure?.reason ?? "";
      return;
    }
    run[outcome] += 1;
    if (outcome === "sent") {
      streak.reset();
      // A message went through: the refusals before it were about their recipients.
      await hear(unheard.splice(0));
      if (!resumed) {
        resumed = true;
        await kind.pause.end();
      }
    }
    if (outcome !== "failed" || failure?.kind !== "permanent") return;
    const refusedAlike = streak.record(row.id, kind.address(row), failure);
    if (!refusedAlike) {
      // Those the streak started over from were refused for themselves: heard now; this one waits
      // while it is part of the streak.
      const inStreak = new Set(streak.rows());
      const heard = unheard.filter((entry) => !inStreak.has(entry.row.id));
      unheard = unheard.filter((entry) => inStreak.has(entry.row.id));
      if (inStreak.has(row.id)) unheard.push({ row, failure });
      await hear(heard);
      return;
    }
    // The provider's refusal, not theirs: none of them is a bounce.
    const alike = new Set(refusedAlike);
    unheard = unheard.filter((entry) => !alike.has(entry.row.id));
    await rows.giveBack(deps.db, refusedAlike);
    run.failed -= refusedAlike.length;
    pausedFor ??= failure.reason;
  };

  // One claim at a time. Rows settled at the claim (skipped) are counted; the rest join the queue
  // under their batch's lease.
  const claimNext = (): Promise<void> =>
    (claiming ??= (async () => {
      if (pausedFor !== undefined || stoppedFor !== undefined || pastDeadline()) {
        exhausted = true;
        return;
      }
      const batch = await kind.claim(batchSize, leaseMs);
      if (batch.length === 0) {
        exhausted = true;
        return;
      }
      heldBack = await kind.holdBack?.();
      if (heldBack !== undefined) {
        await rows.giveBack(
          deps.db,
          batch.map((row) => row.id),
        );
        exhausted = true;
        return;
      }
      const gone = kind.skipAtClaim ? batch.filter((row) => kind.skipAtClaim?.(row)) : [];
      await rows.skip(
        deps.db,
        gone.map((row) => row.id),
      );
      run.skipped += gone.length;
      const live = gone.length > 0 ? batch.filter((row) => !gone.includes(row)) : batch;
      if (live.length === 0) return;
      const batchHeld: Held = holdBatch(deps, live, rows.renew, leaseMs, () => held.delete(batchHeld));
      held.add(batchHeld);
      for (const row of live) queue.push({ row, batch: batchHeld });
    })().finally(() => {
      claiming = null;
    }));

  // A read of `stopped`, caught (it may be left unread when the slot stops for another reason).
  type StopRead = Promise<{ reason: string | undefined } | { error: unknown }>;
  const readStop = (): StopRead | undefined =>
    stillGoing?.().then(
      (reason) => ({ reason }),
      (error: unknown) => ({ error }),
    );

  // Each slot keeps one hand-over on its way. The next batch is claimed while the last rows of this
  // one are still delivered, so no slot waits at a batch's end (decision 0020).
  const slot = async () => {
    // The read for this slot's next hand-over, started as soon as its last one was answered: it runs
    // while the sent mark is written, so the slot rarely waits for it.
    let ahead: StopRead | undefined;
    try {
      while (!failure && pausedFor === undefined && stoppedFor === undefined) {
        if (queue.length <= concurrency && !exhausted && !claiming) {
          claimNext().catch((error: unknown) => (failure ??= { error }));
        }
        const next = queue.shift();
        if (!next) {
          if (exhausted) return;
          await claiming?.catch(() => undefined);
          continue;
        }
        // Read after this slot's last hand-over ended, or the rows claimed before a pause or cancel
        // would all still go out (issue 40): each slot hands over at most one message after it.
        const read = await (ahead ?? readStop());
        ahead = undefined;
        if (read && "error" in read) failure ??= { error: read.error };
        else if (read?.reason !== undefined) stoppedFor ??= read.reason;
        if (failure || pausedFor !== undefined || stoppedFor !== undefined) {
          queue.unshift(next);
          return;
        }
        try {
          await next.batch.renewIfDue();
          const delivered = await deliverOne(next.row, () => {
            ahead = readStop();
          });
          await learn(next.row, delivered);
        } catch (error) {
          failure ??= { error };
        } finally {
          next.batch.settled();
        }
      }
    } finally {
      // A read left unused ends before the run does.
      await ahead;
    }
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, slot));
    // A claim still under way when a failure stopped the slots: its batch's lease keeper is stopped below.
    await (claiming as Promise<void> | null)?.catch(() => undefined);
  } finally {
    for (const batch of held) batch.stop();
  }
  if (failure) throw failure.error;
  // Refusals still waiting on a streak that never tripped. A run that went to its end heard them as
  // they were: their recipients'. A run cut short (a pause, a stop) can't tell: another run may be
  // tripping the same streak (a provider refusing everyone), so they go back pending, untouched,
  // and are heard when they are refused again.
  const undecided = unheard.splice(0);
  if (heldBack === undefined && pausedFor === undefined && stoppedFor === undefined) await hear(undecided);
  else {
    await rows.giveBack(
      deps.db,
      undecided.map((entry) => entry.row.id),
    );
    run.failed -= undecided.length;
  }
  if (heldBack !== undefined) return { ...run, paused: heldBack };
  if (pausedFor !== undefined) {
    // Claimed rows the slots never reached go back too; the kind waits out its pause.
    await rows.giveBack(
      deps.db,
      queue.splice(0).map((entry) => entry.row.id),
    );
    const reason = replyWithoutAddress(pausedFor);
    await kind.pause.start(reason);
    return { ...run, paused: reason };
  }
  if (stoppedFor !== undefined) {
    // Claimed rows not handed over go back pending, as they were: the owner may resume.
    await rows.giveBack(
      deps.db,
      queue.splice(0).map((entry) => entry.row.id),
    );
    return { ...run, stopped: stoppedFor };
  }
  return run;
}
