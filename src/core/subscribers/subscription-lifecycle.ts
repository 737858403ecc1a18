import type { SqlQueryable } from "../db/sql-executor.ts";
import type { SubscriberStatus } from "./subscriber.schema.ts";
import { startDelivery } from "../mail/outbox.ts";
import { enrollConfirmed } from "../sequences/sequences.service.ts";
import type { MailDeps } from "../mail/person-mail.ts";
import { verifyConfirmToken, verifyUnsubscribeToken } from "../mail/subscription-tokens.ts";
import { recordWebhookEvent } from "../webhooks/webhook-events.ts";

/**
 * Where a confirmation link stands. `ready`: pressing the button will confirm. `confirmed`: it just
 * did. `already`: the person is active. `used`: this link confirmed once and the person has left
 * since. `expired`: older than 7 days. `invalid`: not a token of ours (forged, altered, cut off).
 * `unknown`: ours, but nobody it names is held any more (erased).
 */
export type ConfirmState = "ready" | "confirmed" | "already" | "used" | "expired" | "invalid" | "unknown";

/** Where an unsubscribe link stands; the states as for `ConfirmState`. */
export type UnsubscribeState = "ready" | "unsubscribed" | "already" | "invalid" | "unknown";

type LifecycleDeps = Pick<MailDeps, "db" | "signer" | "now">;

interface ConsentRow {
  id: number;
  email: string;
  status: SubscriberStatus;
  consent_id: number | null;
  consent_confirmed_at: Date | null;
}

async function findConsent(db: SqlQueryable, subscriberId: number, consentId: number, lock: boolean): Promise<ConsentRow | undefined> {
  const { rows } = await db.query<ConsentRow>(
    `SELECT s.id, s.email, s.status, c.id AS consent_id, c.confirmed_at AS consent_confirmed_at
       FROM subscribers s LEFT JOIN subscriber_consents c ON c.id = $2 AND c.subscriber_id = s.id
      WHERE s.id = $1${lock ? " FOR UPDATE OF s" : ""}`,
    [subscriberId, consentId],
  );
  return rows[0];
}

function confirmStateOf(row: ConsentRow | undefined): Exclude<ConfirmState, "confirmed" | "expired" | "invalid"> {
  if (!row) return "unknown";
  if (row.status === "active") return "already";
  if (row.consent_id === null) return "unknown";
  return row.consent_confirmed_at ? "used" : "ready";
}

/** What a confirmation link would do, changing nothing: GET and HEAD (mail scanners open every link). */
export async function checkConfirmation(deps: LifecycleDeps, rawToken: string | undefined): Promise<ConfirmState> {
  const check = verifyConfirmToken(deps.signer, rawToken, deps.now());
  if (!check.ok) return check.reason;
  return confirmStateOf(await findConsent(deps.db, check.token.subscriberId, check.token.consentId, false));
}

/**
 * The person pressed "Confirm subscription": they become active, the consent record the link names
 * gets its confirmation time, and they join the welcome sequence (and those of resources they asked
 * for) in the same transaction, which queues the steps due now — the welcome (delivered after the
 * answer, and retried through an outage).
 */
export async function confirmSubscription(deps: MailDeps, rawToken: string | undefined): Promise<ConfirmState> {
  const check = verifyConfirmToken(deps.signer, rawToken, deps.now());
  if (!check.ok) return check.reason;
  const { subscriberId, consentId } = check.token;
  const now = deps.now();
  const state = await deps.db.transaction(async (tx): Promise<ConfirmState> => {
    const row = await findConsent(tx, subscriberId, consentId, true);
    const current = confirmStateOf(row);
    if (current !== "ready" || !row) return current;
    await tx.query("UPDATE subscriber_consents SET confirmed_at = $2 WHERE id = $1", [consentId, now]);
    const { rows } = await tx.query<{ id: number; email: string; status: "active" }>(
      "UPDATE subscribers SET status = 'active', confirmed_at = $2 WHERE id = $1 RETURNING id, email, status",
      [subscriberId, now],
    );
    if (rows[0]) await recordWebhookEvent(tx, deps, "subscriber.confirmed", rows[0], subscriberId);
    await enrollConfirmed(tx, deps, row.id);
    return "confirmed";
  });
  if (state === "confirmed") startDelivery(deps);
  return state;
}

async function findStatus(db: SqlQueryable, subscriberId: number): Promise<SubscriberStatus | undefined> {
  const { rows } = await db.query<{ status: SubscriberStatus }>("SELECT status FROM subscribers WHERE id = $1", [subscriberId]);
  return rows[0]?.status;
}

/** What an unsubscribe link would do, changing nothing (GET and HEAD). */
export async function checkUnsubscribe(deps: Pick<LifecycleDeps, "db" | "signer">, rawToken: string | undefined): Promise<UnsubscribeState> {
  const check = verifyUnsubscribeToken(deps.signer, rawToken);
  if (!check.ok) return "invalid";
  const status = await findStatus(deps.db, check.token.subscriberId);
  if (!status) return "unknown";
  return status === "unsubscribed" ? "already" : "ready";
}

/** Unsubscribes at once (the page's button, or a mail provider's RFC 8058 one-click POST). */
export async function unsubscribe(deps: LifecycleDeps, rawToken: string | undefined): Promise<UnsubscribeState> {
  const check = verifyUnsubscribeToken(deps.signer, rawToken);
  if (!check.ok) return "invalid";
  const done = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number; email: string; status: "unsubscribed" }>(
      "UPDATE subscribers SET status = 'unsubscribed', unsubscribed_at = $2 WHERE id = $1 AND status <> 'unsubscribed' RETURNING id, email, status",
      [check.token.subscriberId, deps.now()],
    );
    if (rows[0]) await recordWebhookEvent(tx, deps, "subscriber.unsubscribed", rows[0], rows[0].id);
    return rows.length > 0;
  });
  if (done) return "unsubscribed";
  return (await findStatus(deps.db, check.token.subscriberId)) ? "already" : "unknown";
}
