import { randomBytes } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { renderWebhookDisabledEmail } from "../mail/emails.ts";
import type { OutboxMessage, RenderedMail } from "../mail/outbox.ts";
import { siteIdentity } from "../mail/person-mail.ts";
import type { Clock } from "../shared/clock.ts";
import type { Site } from "../shared/site.ts";
import { newWebhookEventId, type WebhookRecordDeps } from "./webhook-events.ts";
import type { CheckWebhookHost, PostWebhook } from "./webhook-delivery.ts";
import type {
  WebhookDelivery,
  WebhookEndpoint,
  webhookDeliveryStatusSchema,
  webhookEndpointInputSchema,
  webhookEndpointUpdateSchema,
  webhookRedeliverSchema,
} from "./webhook.schema.ts";
import type { z } from "zod";

/** What the webhooks feature needs (issue 46; docs/webhooks.md). */
export interface WebhooksDeps extends WebhookRecordDeps {
  db: SqlExecutor;
  now: Clock["now"];
  clock?: Clock | undefined;
  site: Site;
  /** POSTs a delivery (src/adapters/webhook-poster.ts): private addresses refused unless `webhooksLocal`. */
  postWebhook: PostWebhook;
  /**
   * `npm start` (not production, SITE_URL on localhost): an endpoint may be plain http to a loopback
   * host, and deliveries may reach it. Everywhere else only https, and never a private address.
   */
  webhooksLocal: boolean;
  /** The dashboard's hidden path (ADMIN_PATH), for the owner's email's link; without it the link is the site's root. */
  adminPath?: string | undefined;
  /** Refuses an endpoint whose host is or resolves to a private address (production), as the deliveries would. */
  checkWebhookHost: CheckWebhookHost;
  /** Starts a bounded delivery run now (kept alive by `waitUntil` after an answer); never throws. */
  deliverWebhooks?: (() => Promise<unknown>) | undefined;
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/** A secret rotated out still signs for this long, so receivers can switch at their pace. */
export const previousSecretValidMs = 24 * 60 * 60 * 1000;

const loopbackHosts = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** `whsec_` and 32 random bytes in base64, the Standard Webhooks form every library reads. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/** An endpoint's address: https, or http to a loopback host under `npm start`; no credentials, no fragment. */
export function checkEndpointUrl(deps: Pick<WebhooksDeps, "webhooksLocal">, value: string): string {
  if (!URL.canParse(value)) throw new ValidationError("url must be an absolute address, such as https://example.com/hooks");
  const url = new URL(value);
  if (url.username || url.password) throw new ValidationError("url must not carry a user name or password: put a token in its path or query");
  if (url.hash) throw new ValidationError("url must not have a #fragment");
  const loopback = loopbackHosts.has(url.hostname);
  if (url.protocol === "http:" && loopback && deps.webhooksLocal) return url.toString();
  if (url.protocol !== "https:") {
    throw new ValidationError(
      deps.webhooksLocal
        ? "url must start with https:// (plain http only to localhost or 127.0.0.1 while the site runs locally)"
        : "url must start with https://",
    );
  }
  if (loopback && !deps.webhooksLocal) throw new ValidationError("url must not point at this machine (loopback)");
  return url.toString();
}

/** `checkEndpointUrl`, then the host's addresses: a private or loopback one is refused in production. */
async function checkEndpointAddress(deps: Pick<WebhooksDeps, "webhooksLocal" | "checkWebhookHost">, value: string): Promise<string> {
  const url = checkEndpointUrl(deps, value);
  const refused = await deps.checkWebhookHost(new URL(url));
  if (refused !== undefined) throw new ValidationError(`url must not point at a private or loopback address: ${refused}`);
  return url;
}

interface EndpointRow {
  id: number;
  url: string;
  description: string;
  events: string[];
  enabled: boolean;
  disabled_reason: string | null;
  failing_since: Date | null;
  created_at: Date;
  secret: string;
}

const endpointColumns = "id, url, description, events, enabled, disabled_reason, failing_since, created_at, secret";

function toEndpoint(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events as WebhookEndpoint["events"],
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    failingSince: row.failing_since === null ? null : new Date(row.failing_since).toISOString(),
    createdAt: new Date(row.created_at).toISOString(),
  };
}

const endpointNotFound = "Webhook endpoint not found";

async function findEndpoint(deps: Pick<WebhooksDeps, "db">, id: number): Promise<EndpointRow> {
  const { rows } = await deps.db.query<EndpointRow>(`SELECT ${endpointColumns} FROM webhook_endpoints WHERE id = $1`, [id]);
  const row = rows[0];
  if (!row) throw new NotFoundError(endpointNotFound);
  return row;
}

/** Every endpoint, oldest first; secrets are never listed. */
export async function listWebhookEndpoints(deps: Pick<WebhooksDeps, "db">): Promise<WebhookEndpoint[]> {
  const { rows } = await deps.db.query<EndpointRow>(`SELECT ${endpointColumns} FROM webhook_endpoints ORDER BY id`);
  return rows.map(toEndpoint);
}

/** Adds an endpoint; its secret is in this answer only (and in a rotation's). */
export async function createWebhookEndpoint(
  deps: Pick<WebhooksDeps, "db" | "now" | "webhooksLocal" | "checkWebhookHost">,
  input: z.output<typeof webhookEndpointInputSchema>,
): Promise<WebhookEndpoint & { secret: string }> {
  const url = await checkEndpointAddress(deps, input.url);
  const now = deps.now();
  const { rows } = await deps.db.query<EndpointRow>(
    `INSERT INTO webhook_endpoints (url, description, events, secret, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5) RETURNING ${endpointColumns}`,
    [url, input.description, input.events, newSecret(), now],
  );
  const row = rows[0] as EndpointRow;
  return { ...toEndpoint(row), secret: row.secret };
}

/** Changes an endpoint; switching it on again clears its failure streak, and its waiting deliveries go. */
export async function updateWebhookEndpoint(
  deps: Pick<WebhooksDeps, "db" | "now" | "webhooksLocal" | "checkWebhookHost">,
  id: number,
  input: z.output<typeof webhookEndpointUpdateSchema>,
): Promise<WebhookEndpoint> {
  const url = input.url === undefined ? null : await checkEndpointAddress(deps, input.url);
  const { rows } = await deps.db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET url = coalesce($2, url), description = coalesce($3, description), events = coalesce($4, events),
            enabled = coalesce($5, enabled),
            failing_since = CASE WHEN $5 AND NOT enabled THEN NULL ELSE failing_since END,
            disabled_reason = CASE WHEN $5 THEN NULL WHEN $5 = false THEN 'Switched off by the owner' ELSE disabled_reason END,
            updated_at = $6
      WHERE id = $1 RETURNING ${endpointColumns}`,
    [id, url, input.description ?? null, input.events ?? null, input.enabled ?? null, deps.now()],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError(endpointNotFound);
  return toEndpoint(row);
}

/** Deletes an endpoint with its deliveries and their log. */
export async function deleteWebhookEndpoint(deps: Pick<WebhooksDeps, "db">, id: number): Promise<void> {
  const { rows } = await deps.db.query("DELETE FROM webhook_endpoints WHERE id = $1 RETURNING id", [id]);
  if (rows.length === 0) throw new NotFoundError(endpointNotFound);
}

/** A new secret; the one it replaces still signs (beside it) for 24 hours. */
export async function rotateWebhookSecret(deps: Pick<WebhooksDeps, "db" | "now">, id: number): Promise<WebhookEndpoint & { secret: string }> {
  const now = deps.now();
  const { rows } = await deps.db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET previous_secret = secret, previous_secret_until = $3, secret = $2, updated_at = $4
      WHERE id = $1 RETURNING ${endpointColumns}`,
    [id, newSecret(), new Date(now.getTime() + previousSecretValidMs), now],
  );
  const row = rows[0];
  if (!row) throw new NotFoundError(endpointNotFound);
  return { ...toEndpoint(row), secret: row.secret };
}

/** Starts a delivery run after the answer (through `waitUntil`); without one, the watchdog's next tick delivers. */
function startWebhookDelivery(deps: Pick<WebhooksDeps, "waitUntil" | "deliverWebhooks">): void {
  if (deps.waitUntil && deps.deliverWebhooks) deps.waitUntil(deps.deliverWebhooks());
}

/** "Send a test event": a `webhook.test` event to this endpoint only, delivered (and logged) like any other. */
export async function sendTestWebhook(deps: WebhooksDeps, id: number): Promise<WebhookDelivery> {
  const endpoint = await findEndpoint(deps, id);
  const now = deps.now();
  const body = JSON.stringify({
    type: "webhook.test",
    timestamp: now.toISOString(),
    data: { endpointId: endpoint.id, message: "A test event from the dashboard" },
  });
  const deliveryId = await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      `WITH event AS (INSERT INTO webhook_events (event_id, type, payload, created_at) VALUES ($1, 'webhook.test', $2, $3) RETURNING id)
       INSERT INTO webhook_deliveries (event_id, endpoint_id, created_at) SELECT id, $4, $3 FROM event RETURNING id`,
      [newWebhookEventId(), body, now, endpoint.id],
    );
    return Number((rows[0] as { id: number }).id);
  });
  startWebhookDelivery(deps);
  return (await deliveryPage(deps, endpoint.id, { ids: [deliveryId] })).deliveries[0] as WebhookDelivery;
}

interface DeliveryRow {
  id: number;
  event_ref: string;
  type: string;
  status: WebhookDelivery["status"];
  last_error: string | null;
  lease_until: Date | null;
  created_at: Date;
  retry_from: Date | null;
  attempts: { at: string; status: number | null; durationMs: number; response: string; error: string | null }[] | null;
}

const deliveriesPerPage = 50;

async function deliveryPage(
  deps: Pick<WebhooksDeps, "db" | "now">,
  endpointId: number,
  filter: { status?: z.output<typeof webhookDeliveryStatusSchema> | undefined; page?: number | undefined; ids?: number[] },
) {
  const page = filter.page ?? 1;
  const where = `d.endpoint_id = $1 AND ($2::text IS NULL OR d.status = $2) AND ($3::bigint[] IS NULL OR d.id = ANY($3::bigint[]))`;
  const params = [endpointId, filter.status ?? null, filter.ids ?? null];
  const { rows: counted } = await deps.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM webhook_deliveries d WHERE ${where}`, params);
  const total = counted[0]?.total ?? 0;
  const { rows } = await deps.db.query<DeliveryRow>(
    `SELECT d.id, v.event_id AS event_ref, v.type, d.status, d.last_error, d.lease_until, d.created_at, d.retry_from,
            (SELECT json_agg(json_build_object('at', a.attempted_at, 'status', a.status_code, 'durationMs', a.duration_ms, 'response', a.response_body, 'error', a.error) ORDER BY a.id)
               FROM webhook_attempts a WHERE a.delivery_id = d.id) AS attempts
       FROM webhook_deliveries d JOIN webhook_events v ON v.id = d.event_id
      WHERE ${where} ORDER BY d.id DESC LIMIT $4 OFFSET $5`,
    [...params, deliveriesPerPage, (page - 1) * deliveriesPerPage],
  );
  const now = deps.now();
  return {
    deliveries: rows
      .map((row) => ({
        id: Number(row.id),
        eventId: row.event_ref,
        type: row.type as WebhookDelivery["type"],
        status: row.status,
        attempts: (typeof row.attempts === "string" ? (JSON.parse(row.attempts) as DeliveryRow["attempts"]) : (row.attempts ?? [])) ?? [],
        lastError: row.last_error,
        nextTryAt:
          row.status === "pending" ? (row.lease_until && new Date(row.lease_until) > now ? new Date(row.lease_until) : now).toISOString() : null,
        createdAt: new Date(row.created_at).toISOString(),
        resentAt: row.retry_from === null ? null : new Date(row.retry_from).toISOString(),
      }))
      .map((delivery) => ({ ...delivery, attempts: delivery.attempts.map((attempt) => ({ ...attempt, at: new Date(attempt.at).toISOString() })) })),
    page,
    pages: Math.max(1, Math.ceil(total / deliveriesPerPage)),
    total,
  };
}

/** An endpoint's delivery log, newest first, 50 a page, each with every attempt. */
export async function listWebhookDeliveries(
  deps: Pick<WebhooksDeps, "db" | "now">,
  endpointId: number,
  query: { status?: z.output<typeof webhookDeliveryStatusSchema> | undefined; page?: number | undefined },
) {
  await findEndpoint(deps, endpointId);
  return deliveryPage(deps, endpointId, query);
}

/**
 * "Send again": the named failed deliveries, or every failed one since a time, go back to pending
 * with the same event (the same `webhook-id`, so a receiver that got it already drops it) and a
 * fresh 3 days of retries counted from now (`retry_from`); the log keeps the event's own time
 * (`created_at`), and `since` reads that time. Answers how many were queued.
 */
export async function redeliverWebhooks(
  deps: WebhooksDeps,
  endpointId: number,
  input: z.output<typeof webhookRedeliverSchema>,
): Promise<{ queued: number }> {
  await findEndpoint(deps, endpointId);
  const { rows } = await deps.db.query<{ id: number }>(
    `UPDATE webhook_deliveries SET status = 'pending', lease_until = NULL, attempts = 0, retry_from = $4
      WHERE endpoint_id = $1 AND status = 'failed'
        AND (($2::bigint[] IS NOT NULL AND id = ANY($2::bigint[])) OR ($3::timestamptz IS NOT NULL AND created_at >= $3))
      RETURNING id`,
    [endpointId, "ids" in input ? input.ids : null, "since" in input ? new Date(input.since) : null, deps.now()],
  );
  if (rows.length > 0) startWebhookDelivery(deps);
  return { queued: rows.length };
}

/** The owner's email when an endpoint was switched off, rendered at delivery. */
export async function renderWebhookDisabled(deps: Pick<WebhooksDeps, "db" | "site" | "adminPath">, message: OutboxMessage): Promise<RenderedMail> {
  const { rows } = await deps.db.query<{ url: string; disabled_reason: string | null }>(
    "SELECT url, disabled_reason FROM webhook_endpoints WHERE id = $1",
    [message.webhookEndpointId],
  );
  const endpoint = rows[0];
  if (!endpoint) throw new NotFoundError(endpointNotFound);
  return renderWebhookDisabledEmail({
    ...(await siteIdentity(deps)),
    endpointUrl: endpoint.url,
    reason: endpoint.disabled_reason ?? "",
    // The dashboard opens its Integrations tab at `#integrations`, where the endpoint is switched on again.
    dashboardUrl: deps.adminPath ? deps.site.absolute(`/${deps.adminPath}#integrations`) : deps.site.url,
  });
}
