import { Webhook } from "standardwebhooks";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { claimLeased, runDeliveries, type DeliveryKind, type EngineRun, type LeasedRow } from "../mail/delivery-engine.ts";
import type { DeliveryFailure } from "../mail/delivery-failure.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Clock } from "../shared/clock.ts";
import type { Site } from "../shared/site.ts";

/**
 * Outgoing webhooks as a kind of the delivery engine (src/core/mail/README.md): one row of
 * `webhook_deliveries` per event and endpoint, claimed under a lease, POSTed signed the Standard
 * Webhooks way, marked sent only once the endpoint answered 2xx. Figures: docs/decisions/0068-outgoing-webhooks.md.
 */

/** What an endpoint answered: its status, its body's first 2 KB, and how long it took. */
export interface WebhookAnswer {
  status: number;
  body: string;
  durationMs: number;
}

/**
 * POSTs one delivery (src/adapters/webhook-poster.ts): http(s) only, the connected address checked
 * against private ones (unless local), no redirect followed, 10 s at most. It rejects with a
 * `WebhookPostFailure` when no answer came.
 */
export type PostWebhook = (request: { url: string; headers: Record<string, string>; body: string }) => Promise<WebhookAnswer>;

/**
 * Why an endpoint's host is refused (production: it is, or resolves to, a private or loopback
 * address; src/adapters/webhook-poster.ts), or undefined. The rule each delivery applies again on
 * the address it connects to; a host not found (yet) is left to the deliveries.
 */
export type CheckWebhookHost = (url: URL) => Promise<string | undefined>;

/** No answer: a network error, the time limit, or an address refused (`refused`: private or loopback, never retried). */
export class WebhookPostFailure extends Error {
  readonly durationMs: number;
  readonly refused: boolean;
  constructor(message: string, options: { durationMs: number; refused?: boolean; cause?: unknown }) {
    super(message, { cause: options.cause });
    this.name = "WebhookPostFailure";
    this.durationMs = options.durationMs;
    this.refused = options.refused ?? false;
  }
}

/** An answer that is not 2xx. */
class WebhookRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export interface WebhookDeliveryDeps {
  db: SqlExecutor;
  now: Clock["now"];
  clock?: Pick<Clock, "now" | "sleep"> | undefined;
  site: Site;
  postWebhook: PostWebhook;
}

/** Retries: the first within a minute, then backing off; given up once a delivery is 3 days old. */
export const webhookRetryForMs = 3 * 24 * 60 * 60 * 1000;
const retryDelaysMs = [30_000, 5 * 60_000, 30 * 60_000, 2 * 3_600_000, 5 * 3_600_000, 10 * 3_600_000];
export function webhookRetryDelayMs(attempts: number): number {
  return retryDelaysMs[Math.min(Math.max(attempts, 1), retryDelaysMs.length) - 1] as number;
}

/** An endpoint whose every attempt failed for this long is switched off and the owner emailed. */
export const webhookSwitchOffAfterMs = webhookRetryForMs;

/** The answer kept per attempt: its first 2 KB. */
export const keptAnswerBytes = 2048;

interface WebhookRow extends LeasedRow {
  endpointId: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
  eventId: string;
  payload: string;
  /** Since when it is tried: the event's time, or when the owner last sent it again. */
  retryFrom: Date;
  /** Put back untried in this run (its endpoint was busy): not an attempt, never its last. */
  deferred?: boolean;
}

/** The `webhook-signature` header: `v1,…` with the secret, and with the previous one while it is still valid after a rotation. */
export function signWebhook(secrets: string[], eventId: string, at: Date, body: string): string {
  return secrets.map((secret) => new Webhook(secret).sign(eventId, at, body)).join(" ");
}

async function recordAttempt(
  deps: WebhookDeliveryDeps,
  row: WebhookRow,
  at: Date,
  outcome: { status: number | null; durationMs: number; body: string; error: string | null },
) {
  await deps.db.query(
    `INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, duration_ms, response_body, error) VALUES ($1, $2, $3, $4, $5, $6)`,
    [row.id, at, outcome.status, Math.round(outcome.durationMs), outcome.body.slice(0, keptAnswerBytes), outcome.error],
  );
}

/**
 * An attempt failed: the endpoint is failing since its first failure in a row; once that is 3 days
 * ago it is switched off, in one transaction with the owner's email (to the `contact_email` setting).
 */
async function endpointFailed(deps: WebhookDeliveryDeps, endpointId: number, reason: string) {
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2), enabled = false, disabled_reason = $4, updated_at = $2
        WHERE id = $1 AND enabled AND failing_since IS NOT NULL AND failing_since <= $3
       RETURNING id`,
      [
        endpointId,
        now,
        new Date(now.getTime() - webhookSwitchOffAfterMs),
        `Switched off after 3 days of failed deliveries (last: ${reason.slice(0, 300)})`,
      ],
    );
    if (rows.length === 0) {
      await tx.query("UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL", [endpointId, now]);
      return;
    }
    const owner = (await siteSettingValues({ db: tx })).contact_email.trim();
    if (owner !== "")
      await enqueueMail(
        tx,
        { site: deps.site, now: deps.now },
        { kind: "webhook-disabled", subscriberId: null, to: owner, webhookEndpointId: endpointId },
      );
  });
}

/** Reads a failed POST: 429, 5xx, no answer and the time limit are retried; any other 4xx, a redirect and a refused address are final. */
export function classifyWebhookFailure(error: unknown): DeliveryFailure {
  if (error instanceof WebhookRefusal) {
    return { kind: error.status === 429 || error.status >= 500 ? "transient" : "permanent", reason: error.message };
  }
  if (error instanceof WebhookPostFailure) return { kind: error.refused ? "permanent" : "transient", reason: error.message };
  return { kind: "transient", reason: error instanceof Error ? error.message : String(error) };
}

/**
 * The webhook kind for one run: an endpoint's rows go one after another (a row waits for the one on
 * its way), and once one failed in this run its others are put back untried for a later run.
 */
function webhookKind(deps: WebhookDeliveryDeps): DeliveryKind<WebhookRow, null> {
  // Each endpoint's lane: the delivery on its way, which the next of its rows waits for.
  const lanes = new Map<number, Promise<void>>();
  const failedThisRun = new Set<number>();

  /** One delivery, its endpoint's lane free: put back untried when the endpoint failed in this run, else POSTed and logged. */
  const deliverInLane = async (row: WebhookRow): Promise<null> => {
    if (failedThisRun.has(row.endpointId)) {
      // Not a try (the claim counted it): a burst for one endpoint must not use up its tries, or its 3 days, waiting.
      await deps.db.query("UPDATE webhook_deliveries SET attempts = greatest(attempts - 1, 0) WHERE id = $1", [row.id]);
      row.attempts = Math.max(row.attempts - 1, 0);
      row.deferred = true;
      throw new Error(`endpoint ${String(row.endpointId)}: waiting for its earlier delivery`);
    }
    const at = deps.now();
    const secrets = [row.secret, ...(row.previousSecret && row.previousSecretUntil && row.previousSecretUntil > at ? [row.previousSecret] : [])];
    const headers = {
      "content-type": "application/json",
      "user-agent": "NoFilter-Webhooks/1",
      "webhook-id": row.eventId,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": signWebhook(secrets, row.eventId, at, row.payload),
    };
    let answer: WebhookAnswer;
    try {
      answer = await deps.postWebhook({ url: row.url, headers, body: row.payload });
    } catch (error) {
      const failure = error instanceof WebhookPostFailure ? error : new WebhookPostFailure(String(error), { durationMs: 0, cause: error });
      const reason = `endpoint ${String(row.endpointId)}: ${failure.message}`;
      await recordAttempt(deps, row, at, { status: null, durationMs: failure.durationMs, body: "", error: failure.message });
      failedThisRun.add(row.endpointId);
      await endpointFailed(deps, row.endpointId, failure.message);
      throw new WebhookPostFailure(reason, { durationMs: failure.durationMs, refused: failure.refused });
    }
    await recordAttempt(deps, row, at, { status: answer.status, durationMs: answer.durationMs, body: answer.body, error: null });
    if (answer.status >= 200 && answer.status < 300) return null;
    const message = `endpoint ${String(row.endpointId)}: answered ${String(answer.status)}${answer.status >= 300 && answer.status < 400 ? " (redirects are not followed)" : ""}`;
    failedThisRun.add(row.endpointId);
    await endpointFailed(deps, row.endpointId, `answered ${String(answer.status)}`);
    throw new WebhookRefusal(answer.status, message);
  };

  return {
    table: "webhook_deliveries",
    claim: async (size, leaseMs) => {
      const rows = await claimLeased<{
        endpoint_id: number;
        url: string;
        secret: string;
        previous_secret: string | null;
        previous_secret_until: Date | null;
        event_ref: string;
        payload: string;
        retry_from: Date;
      }>(
        deps,
        {
          table: "webhook_deliveries",
          // A switched-off endpoint's deliveries wait: they go once the owner switches it on again.
          // Only the oldest due row of each endpoint, and none of one that failed in this run: the
          // engine holds two claims at most, so a slow endpoint takes two of the slots at most (one on
          // its way, one waiting for it), and a burst for one endpoint goes in order.
          due: `EXISTS (SELECT 1 FROM webhook_endpoints e WHERE e.id = q.endpoint_id AND e.enabled)
                AND NOT (q.endpoint_id = ANY($4::int[]))
                AND q.id = (SELECT min(o.id) FROM webhook_deliveries o
                             WHERE o.endpoint_id = q.endpoint_id AND o.status = 'pending' AND (o.lease_until IS NULL OR o.lease_until <= $1))`,
          params: [[...failedThisRun]],
          pick: ["endpoint_id", "event_id"],
          join: "JOIN webhook_endpoints e ON e.id = picked.endpoint_id JOIN webhook_events v ON v.id = picked.event_id",
          returning:
            "q.endpoint_id, e.url, e.secret, e.previous_secret, e.previous_secret_until, v.event_id AS event_ref, v.payload, coalesce(q.retry_from, q.created_at) AS retry_from",
        },
        size,
        leaseMs,
      );
      return rows.map((row) => ({
        id: row.id,
        attempts: row.attempts,
        leaseUntil: row.leaseUntil,
        endpointId: row.endpoint_id,
        url: row.url,
        secret: row.secret,
        previousSecret: row.previous_secret,
        previousSecretUntil: row.previous_secret_until === null ? null : new Date(row.previous_secret_until),
        eventId: row.event_ref,
        payload: row.payload,
        retryFrom: new Date(row.retry_from),
      }));
    },
    deliver: async (row) => {
      const before = lanes.get(row.endpointId);
      let done = () => {};
      const mine = new Promise<void>((resolve) => {
        done = resolve;
      });
      lanes.set(row.endpointId, mine);
      try {
        await before;
        return await deliverInLane(row);
      } finally {
        done();
        if (lanes.get(row.endpointId) === mine) lanes.delete(row.endpointId);
      }
    },
    classify: classifyWebhookFailure,
    markSent: async (row) => {
      await deps.db.query(
        `WITH sent AS (UPDATE webhook_deliveries SET status = 'sent', sent_at = $2, lease_until = NULL, last_error = NULL WHERE id = $1 AND status = 'pending' RETURNING endpoint_id)
         UPDATE webhook_endpoints SET failing_since = NULL WHERE id IN (SELECT endpoint_id FROM sent) AND failing_since IS NOT NULL`,
        [row.id, deps.now()],
      );
    },
    retry: { lastTry: (row, now) => !row.deferred && now.getTime() - row.retryFrom.getTime() >= webhookRetryForMs, delayMs: webhookRetryDelayMs },
    // Never alike across endpoints (each reason names its endpoint): no run of refusals reads as a provider outage.
    address: (row) => `endpoint-${String(row.endpointId)}`,
    pause: { now: () => Promise.resolve(null), start: () => Promise.resolve(), end: () => Promise.resolve() },
  };
}

export interface WebhookRunOptions {
  /** POSTs at once. Default 10. */
  concurrency?: number;
  leaseMs?: number;
  stopClaimingAt?: Date | undefined;
}

/** One bounded run over the pending webhook deliveries: what a request starts after its answer and the watchdog runs every minute. */
export function deliverWebhooks(deps: WebhookDeliveryDeps, options: WebhookRunOptions = {}): Promise<EngineRun> {
  const concurrency = options.concurrency ?? 10;
  return runDeliveries(deps, webhookKind(deps), {
    concurrency,
    batchSize: concurrency,
    ...(options.leaseMs && { leaseMs: options.leaseMs }),
    stopClaimingAt: options.stopClaimingAt,
  });
}
