import type { SqlExecutor } from "../db/sql-executor.ts";
import { claimLeased, runDeliveries, type DeliveryKind, type EngineRun, type LeasedRow } from "../mail/delivery-engine.ts";
import type { DeliveryFailure } from "../mail/delivery-failure.ts";
import type { Clock } from "../shared/clock.ts";
import type { DeliveryActivity } from "./fediverse.schema.ts";

/**
 * The site's activities as a kind of the one delivery engine (src/core/mail/delivery-engine.ts;
 * issue 45 point 3): one row of `fediverse_deliveries` per activity and inbox (a server's shared
 * inbox when it has one), claimed under a lease, signed and POSTed by Fedify (the `send` port,
 * src/adapters/fediverse-federation.ts), marked sent only once the inbox answered 2xx.
 */

/** One delivery as the engine hands it to `send`. */
export interface FediverseDeliveryRow extends LeasedRow {
  activity: DeliveryActivity;
  postId: number | null;
  payload: Record<string, unknown>;
  recipientId: string;
  inbox: string;
  server: string;
  createdAt: Date;
  givenUp: boolean;
}

/** Signs and POSTs one activity; rejects with `FediverseSendFailure` when the inbox refused it or nothing answered. */
export type SendFediverseActivity = (row: FediverseDeliveryRow) => Promise<void>;

/** No 2xx: `status` is the inbox's answer, or null when none came. */
export class FediverseSendFailure extends Error {
  readonly status: number | null;
  constructor(message: string, status: number | null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FediverseSendFailure";
    this.status = status;
  }
}

export interface FediverseDeliveryDeps {
  db: SqlExecutor;
  now: Clock["now"];
  clock?: Pick<Clock, "now" | "sleep"> | undefined;
  sendFediverseActivity: SendFediverseActivity;
}

/** A server failing this long in a row is given up on (listed as a dead server) until one of its actors acts again. */
export const fediverseGiveUpAfterMs = 3 * 24 * 3_600_000;
/** Backoff: 1 minute, 5, 30, 2 hours, 6, 12, then every 24 hours (decision 0087). */
const retryDelaysMs = [60_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 6 * 3_600_000, 12 * 3_600_000, 24 * 3_600_000];
export const fediverseRetryDelayMs = (attempts: number): number => retryDelaysMs[Math.min(Math.max(attempts, 1), retryDelaysMs.length) - 1] as number;

/** 408, 429, 5xx and no answer are retried; another 4xx (410 Gone: the account left) is final. */
export function classifyFediverseFailure(error: unknown): DeliveryFailure {
  const reason = error instanceof Error ? error.message : String(error);
  if (error instanceof FediverseSendFailure && error.status !== null) {
    const transient = error.status === 408 || error.status === 429 || error.status >= 500;
    return { kind: transient ? "transient" : "permanent", reason };
  }
  return { kind: "transient", reason };
}

function fediverseKind(deps: FediverseDeliveryDeps): DeliveryKind<FediverseDeliveryRow, null> {
  return {
    table: "fediverse_deliveries",
    claim: async (size, leaseMs) =>
      (
        await claimLeased<{
          activity: DeliveryActivity;
          post_id: number | null;
          payload: Record<string, unknown>;
          recipient_id: string;
          inbox: string;
          server: string;
          created_at: Date;
          given_up: boolean;
        }>(
          deps,
          {
            table: "fediverse_deliveries",
            pick: ["server"],
            join: "LEFT JOIN fediverse_servers fs ON fs.server = picked.server",
            returning: "q.activity, q.post_id, q.payload, q.recipient_id, q.inbox, q.server, q.created_at, (fs.given_up_at IS NOT NULL) AS given_up",
          },
          size,
          leaseMs,
        )
      ).map((row) => ({
        id: row.id,
        attempts: row.attempts,
        leaseUntil: row.leaseUntil,
        activity: row.activity,
        postId: row.post_id,
        payload: row.payload,
        recipientId: row.recipient_id,
        inbox: row.inbox,
        server: row.server,
        createdAt: new Date(row.created_at),
        givenUp: row.given_up,
      })),
    // A server given up on gets nothing more until one of its actors acts again (federation.ts).
    skipAtClaim: (row) => row.givenUp,
    deliver: async (row) => {
      try {
        await deps.sendFediverseActivity(row);
      } catch (error) {
        await serverFailed(deps, row.server);
        throw error;
      }
      return null;
    },
    classify: classifyFediverseFailure,
    markSent: async (row) => {
      const now = deps.now();
      await deps.db.query(
        "UPDATE fediverse_deliveries SET status = 'sent', sent_at = $2, updated_at = $2, lease_until = NULL, last_error = NULL WHERE id = $1 AND status = 'pending'",
        [row.id, now],
      );
      await deps.db.query("UPDATE fediverse_servers SET failing_since = NULL, given_up_at = NULL WHERE server = $1 AND failing_since IS NOT NULL", [
        row.server,
      ]);
    },
    retry: {
      // The last try is the one past its server's 3 days of failing (serverFailed set given_up_at).
      lastTry: (row, now) => now.getTime() - row.createdAt.getTime() >= fediverseGiveUpAfterMs,
      delayMs: fediverseRetryDelayMs,
    },
    // Never alike across servers: one server's refusals say nothing of the others.
    address: (row) => row.server,
    pause: { now: () => Promise.resolve(null), start: () => Promise.resolve(), end: () => Promise.resolve() },
  };
}

/** A failed attempt: the server fails since its first failure in a row; once that is 3 days ago it is given up on. */
async function serverFailed(deps: FediverseDeliveryDeps, server: string): Promise<void> {
  const now = deps.now();
  await deps.db.query(
    `INSERT INTO fediverse_servers (server, failing_since) VALUES ($1, $2)
     ON CONFLICT (server) DO UPDATE SET failing_since = coalesce(fediverse_servers.failing_since, excluded.failing_since),
       given_up_at = CASE WHEN fediverse_servers.given_up_at IS NULL AND fediverse_servers.failing_since IS NOT NULL AND fediverse_servers.failing_since <= $3
                          THEN $2 ELSE fediverse_servers.given_up_at END`,
    [server, now, new Date(now.getTime() - fediverseGiveUpAfterMs)],
  );
}

/** One bounded run over the pending deliveries: after an inbox request's answer, after a publish, and by the watchdog every minute. */
export async function deliverFediverse(
  deps: FediverseDeliveryDeps,
  options: { concurrency?: number; leaseMs?: number; stopClaimingAt?: Date | undefined } = {},
): Promise<EngineRun> {
  const concurrency = options.concurrency ?? 5;
  const run = await runDeliveries(deps, fediverseKind(deps), {
    concurrency,
    ...(options.leaseMs && { leaseMs: options.leaseMs }),
    stopClaimingAt: options.stopClaimingAt,
  });
  return run;
}
