import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { enqueueMail } from "../mail/outbox.ts";
import { isEmptyPostHtml, sanitizePostHtml } from "../posts/sanitize-post-html.ts";
import type { Clock } from "../shared/clock.ts";
import { escapeHtml } from "../shared/escape-html.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { stepClicks } from "../stats/newsletter-clicks.ts";
import { parseSegment } from "../segments/segment-grammar.ts";
import { segmentCondition, segmentIds } from "../segments/segment-sql.ts";
import { checkSegment } from "../segments/segments.service.ts";
import { sequenceBodyMissingMessage, type Sequence, type SequenceStepStats, type SequenceUpdate } from "./sequence.schema.ts";

/**
 * Sequences (docs/decisions/0039-sequences.md): the welcome sequence and one per resource. A run
 * queues each enrolled person's next step once it is due, in one transaction with the delivery
 * row whose unique key (person's enrollment, step) makes it once; the outbox delivers it.
 */
export interface SequencesDeps {
  db: SqlExecutor;
  now: Clock["now"];
  site: Site;
  urls: ApiUrls;
  signer: Signer;
}

export const sequenceNotFoundMessage = "Sequence not found";
export const unknownStepMessage = "A step id does not belong to this sequence.";

/** Which sequence a key names: the welcome one (`downloadId` null) or a resource's. */
export function parseSequenceKey(key: string): { downloadId: number | null } {
  if (key === "welcome") return { downloadId: null };
  const match = /^download-([1-9]\d{0,9})$/.exec(key);
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw new NotFoundError(sequenceNotFoundMessage);
  return { downloadId: id };
}

const keyOf = (downloadId: number | null) => (downloadId === null ? "welcome" : `download-${String(downloadId)}`);

/** The built-in welcome email, as the welcome sequence's first step on a new site (the same words). */
export function defaultWelcomeStep(site: Pick<Site, "name" | "url">): { subject: string; html: string } {
  const url = escapeHtml(site.url);
  return {
    subject: `You're in: welcome to ${site.name}`,
    html: [
      "<h1>You're in</h1>",
      "<p>Thanks for confirming. Here's the deal, no fine print:</p>",
      "<p>One email a week: the wins, the fails and the funding rounds founders don't post on LinkedIn.</p>",
      "<p>No spam. Unsubscribe any time. It's one click, at the bottom of every email.</p>",
      "<h2>Until the first one lands</h2>",
      `<p><a href="${url}/blog/">Read the blog</a></p>`,
      `<p><a href="${url}/downloads/">Grab the free resources</a></p>`,
    ].join(""),
  };
}

/**
 * Gives the welcome sequence its first step the first time it is needed (the migration cannot: the
 * site's name and address are configuration). One statement: two callers at once seed it once.
 */
async function seedWelcome(db: SqlQueryable, site: Pick<Site, "name" | "url">): Promise<void> {
  const step = defaultWelcomeStep(site);
  await db.query(
    `WITH seeded AS (UPDATE sequences SET seeded = true WHERE download_id IS NULL AND NOT seeded RETURNING id)
     INSERT INTO sequence_steps (sequence_id, position, delay_minutes, subject, html) SELECT id, 0, 0, $1, $2 FROM seeded`,
    [step.subject, step.html],
  );
}

interface StepRow {
  id: number;
  sequence_id: number;
  delay_minutes: number;
  subject: string;
  html: string;
}

async function stepsOf(db: SqlQueryable, sequenceIds: number[]): Promise<Map<number, Sequence["steps"]>> {
  const { rows } = await db.query<StepRow>(
    `SELECT id, sequence_id, delay_minutes, subject, html FROM sequence_steps
      WHERE sequence_id = ANY($1::integer[]) AND deleted_at IS NULL ORDER BY sequence_id, position, id`,
    [sequenceIds],
  );
  const steps = new Map<number, Sequence["steps"]>();
  for (const row of rows) {
    const list = steps.get(row.sequence_id) ?? [];
    list.push({ id: row.id, delayMinutes: row.delay_minutes, subject: row.subject, html: row.html });
    steps.set(row.sequence_id, list);
  }
  return steps;
}

interface SequenceRow {
  segment: string | null;
  id: number | null;
  download_id: number | null;
  title: string | null;
  enabled: boolean | null;
}

const nameOf = (row: SequenceRow) => (row.download_id === null ? "Welcome" : `After download: ${row.title ?? ""}`);

/** The welcome sequence, then one per resource (a resource never set up shows as off, with no steps). */
export async function listSequences(deps: Pick<SequencesDeps, "db" | "site">): Promise<Sequence[]> {
  await seedWelcome(deps.db, deps.site);
  const { rows } = await deps.db.query<SequenceRow>(
    `SELECT q.id, NULL::integer AS download_id, NULL::text AS title, q.enabled, q.segment FROM sequences q WHERE q.download_id IS NULL
     UNION ALL
     SELECT q.id, d.id, d.title, q.enabled, q.segment FROM downloads d LEFT JOIN sequences q ON q.download_id = d.id
     ORDER BY 2 NULLS FIRST`,
  );
  const steps = await stepsOf(
    deps.db,
    rows.flatMap((row) => (row.id === null ? [] : [row.id])),
  );
  return rows.map((row) => ({
    key: keyOf(row.download_id),
    name: nameOf(row),
    enabled: row.enabled ?? false,
    segment: row.segment,
    steps: row.id === null ? [] : (steps.get(row.id) ?? []),
  }));
}

/** One sequence by key; 404 for a key that names nothing (a resource that does not exist). */
export async function getSequence(deps: Pick<SequencesDeps, "db" | "site">, key: string): Promise<Sequence> {
  const { downloadId } = parseSequenceKey(key);
  const found = (await listSequences(deps)).find((sequence) => sequence.key === keyOf(downloadId));
  if (!found) throw new NotFoundError(sequenceNotFoundMessage);
  return found;
}

/**
 * Saves a sequence whole: steps with an `id` are updated in place (their deliveries and figures
 * stay theirs), steps without one are added, steps left out are removed (kept for their figures,
 * sent to nobody from then on). What was queued already keeps the words it was queued with.
 */
export async function updateSequence(
  deps: Pick<SequencesDeps, "db" | "site" | "now" | "urls">,
  key: string,
  input: SequenceUpdate,
): Promise<Sequence> {
  const { downloadId } = parseSequenceKey(key);
  await seedWelcome(deps.db, deps.site);
  const steps = input.steps.map((step) => ({ ...step, html: sanitizePostHtml(step.html, deps.urls.isFile) }));
  if (steps.some((step) => isEmptyPostHtml(step.html))) throw new ValidationError(sequenceBodyMissingMessage);
  // Absent: unchanged; empty or null: everyone it starts for.
  const segment = input.segment === undefined ? undefined : input.segment ? await checkSegment(deps.db, input.segment) : null;
  await deps.db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number }>(
      downloadId === null
        ? "UPDATE sequences SET enabled = $1 WHERE download_id IS NULL RETURNING id"
        : `INSERT INTO sequences (download_id, enabled) SELECT id, $1 FROM downloads WHERE id = $2
           ON CONFLICT (download_id) DO UPDATE SET enabled = EXCLUDED.enabled RETURNING id`,
      downloadId === null ? [input.enabled] : [input.enabled, downloadId],
    );
    const sequenceId = rows[0]?.id;
    if (sequenceId === undefined) throw new NotFoundError(sequenceNotFoundMessage);
    if (segment !== undefined) await tx.query("UPDATE sequences SET segment = $2 WHERE id = $1", [sequenceId, segment]);
    const { rows: current } = await tx.query<{ id: number }>("SELECT id FROM sequence_steps WHERE sequence_id = $1 AND deleted_at IS NULL", [
      sequenceId,
    ]);
    const known = new Set(current.map((row) => row.id));
    const kept = new Set<number>();
    for (const step of steps) {
      if (step.id === undefined) continue;
      if (!known.has(step.id) || kept.has(step.id)) throw new ValidationError(unknownStepMessage);
      kept.add(step.id);
    }
    await tx.query("UPDATE sequence_steps SET deleted_at = $2 WHERE sequence_id = $1 AND deleted_at IS NULL AND NOT (id = ANY($3::integer[]))", [
      sequenceId,
      deps.now(),
      [...kept],
    ]);
    // Delays may have changed: every open enrollment's next step is looked at again on the next run.
    await tx.query(
      "UPDATE sequence_enrollments SET next_at = enrolled_at WHERE sequence_id = $1 AND finished_at IS NULL AND enrolled_at IS NOT NULL",
      [sequenceId],
    );
    for (const [position, step] of steps.entries()) {
      if (step.id === undefined) {
        await tx.query("INSERT INTO sequence_steps (sequence_id, position, delay_minutes, subject, html) VALUES ($1, $2, $3, $4, $5)", [
          sequenceId,
          position,
          step.delayMinutes,
          step.subject,
          step.html,
        ]);
      } else {
        await tx.query("UPDATE sequence_steps SET position = $2, delay_minutes = $3, subject = $4, html = $5 WHERE id = $1", [
          step.id,
          position,
          step.delayMinutes,
          step.subject,
          step.html,
        ]);
      }
    }
  });
  return getSequence(deps, key);
}

/**
 * Each live step's figures: `sent`, the emails the SMTP server accepted; `unsubscribed`, the
 * people who unsubscribed after this step was queued for them and before the next one was;
 * `clicks` and `uniqueClicks`, on the step's links through the click redirect (every version of
 * the step: links of emails queued before an edit count for it too).
 */
export async function sequenceStats(deps: Pick<SequencesDeps, "db" | "site">, key: string): Promise<SequenceStepStats[]> {
  const sequence = await getSequence(deps, key);
  const ids = sequence.steps.map((step) => step.id);
  const { rows } = await deps.db.query<{ step_id: number; sent: number; unsubscribed: number }>(
    `SELECT d.step_id,
            count(*) FILTER (WHERE o.status = 'sent')::int AS sent,
            count(*) FILTER (WHERE s.status = 'unsubscribed' AND s.unsubscribed_at >= d.created_at
              AND NOT EXISTS (SELECT 1 FROM sequence_deliveries n
                               WHERE n.enrollment_id = d.enrollment_id AND n.id > d.id AND n.created_at <= s.unsubscribed_at))::int AS unsubscribed
       FROM sequence_deliveries d
       JOIN sequence_enrollments e ON e.id = d.enrollment_id
       JOIN subscribers s ON s.id = e.subscriber_id
       LEFT JOIN outbox o ON o.message_id = d.message_id
      WHERE d.step_id = ANY($1::integer[])
      GROUP BY d.step_id`,
    [ids],
  );
  const byStep = new Map(rows.map((row) => [row.step_id, row]));
  const clicks = await stepClicks(deps.db, ids);
  return ids.map((stepId) => ({
    stepId,
    sent: byStep.get(stepId)?.sent ?? 0,
    unsubscribed: byStep.get(stepId)?.unsubscribed ?? 0,
    clicks: clicks.get(stepId)?.clicks ?? 0,
    uniqueClicks: clicks.get(stepId)?.uniqueClicks ?? 0,
  }));
}

/**
 * Enrolls a person who just confirmed, on `tx` (the confirmation's transaction): into the welcome
 * sequence, and into the sequence of every resource they requested while pending. Their first
 * steps due now are queued in the same transaction, so the welcome leaves with the confirmation.
 */
export async function enrollConfirmed(tx: SqlQueryable, deps: Pick<SequencesDeps, "site" | "now">, subscriberId: number): Promise<void> {
  const now = deps.now();
  await seedWelcome(tx, deps.site);
  await tx.query(
    `WITH started AS (
       UPDATE sequence_enrollments SET enrolled_at = $2, next_at = $2 WHERE subscriber_id = $1 AND enrolled_at IS NULL RETURNING id)
     INSERT INTO sequence_enrollments (sequence_id, subscriber_id, enrolled_at, next_at)
     SELECT id, $1, $2, $2 FROM sequences WHERE download_id IS NULL AND enabled
     ON CONFLICT (sequence_id, subscriber_id) DO NOTHING`,
    [subscriberId, now],
  );
  await queueDueSteps(tx, deps, { subscriberId, limit: 10 });
}

/**
 * The owner of an address opened the download link that was emailed to it (the link names them,
 * signed): they asked for the resource with that address and showed it is theirs, so they join the
 * resource's sequence when it is on — from its next run if they are subscribed, otherwise once they
 * confirm. Asking on the form alone starts nothing: anyone can type anyone's address there
 * (docs/decisions/0055-who-starts-a-sequence.md). Someone already in it stays where they are.
 */
export async function enrollDownloadOwner(
  deps: Pick<SequencesDeps, "db" | "now">,
  input: { subscriberId: number; downloadId: number },
): Promise<void> {
  const now = deps.now();
  await deps.db.query(
    `INSERT INTO sequence_enrollments (sequence_id, subscriber_id, enrolled_at, next_at)
     SELECT q.id, s.id, CASE WHEN s.status = 'active' THEN $3::timestamptz END, CASE WHEN s.status = 'active' THEN $3::timestamptz END
       FROM sequences q, subscribers s
      WHERE q.download_id = $2 AND q.enabled AND s.id = $1
     ON CONFLICT (sequence_id, subscriber_id) DO NOTHING`,
    [input.subscriberId, input.downloadId, now],
  );
}

/** The welcome sequence's enrollment of imported people (the owner ticked it at import), on `tx`. */
export async function enrollImported(tx: SqlQueryable, deps: Pick<SequencesDeps, "now">, subscriberIds: number[]): Promise<void> {
  if (subscriberIds.length === 0) return;
  await tx.query(
    `INSERT INTO sequence_enrollments (sequence_id, subscriber_id, enrolled_at, next_at)
     SELECT q.id, s.id, $2, $2 FROM sequences q, unnest($1::integer[]) AS s (id) WHERE q.download_id IS NULL AND q.enabled
     ON CONFLICT (sequence_id, subscriber_id) DO NOTHING`,
    [subscriberIds, deps.now()],
  );
}

interface DueRow {
  enrollment_id: number;
  subscriber_id: number;
  email: string;
  step_id: number;
  subject: string;
  html: string;
}

/**
 * Queues, on `tx`, up to `limit` due steps (of one person with `subscriberId`): for each open
 * enrollment of an active person in an enabled sequence, its next unsent step, once the previous
 * step's email is settled (so steps arrive in order) and the step's delay has passed since it was
 * sent (or since the person enrolled). Enrollments under another transaction's lock are passed over
 * (SKIP LOCKED); the delivery's unique key makes a replay queue nothing. Answers how many were queued.
 */
async function queueDueSteps(
  tx: SqlQueryable,
  deps: Pick<SequencesDeps, "site" | "now">,
  options: { limit: number; subscriberId?: number },
): Promise<number> {
  const now = deps.now();
  await leaveOutOfSegment(tx, now, options.subscriberId);
  const { rows } = await tx.query<DueRow>(
    `SELECT e.id AS enrollment_id, e.subscriber_id, s.email, st.id AS step_id, st.subject, st.html
       FROM sequence_enrollments e
       JOIN sequences q ON q.id = e.sequence_id AND q.enabled
       JOIN subscribers s ON s.id = e.subscriber_id AND s.status = 'active'
       JOIN LATERAL (
         SELECT n.id, n.subject, n.html, n.delay_minutes FROM sequence_steps n
          WHERE n.sequence_id = e.sequence_id AND n.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM sequence_deliveries d WHERE d.enrollment_id = e.id AND d.step_id = n.id)
          ORDER BY n.position, n.id LIMIT 1) st ON true
       LEFT JOIN LATERAL (
         SELECT d.created_at, o.status, o.sent_at FROM sequence_deliveries d LEFT JOIN outbox o ON o.message_id = d.message_id
          WHERE d.enrollment_id = e.id ORDER BY d.id DESC LIMIT 1) last ON true
      WHERE e.enrolled_at IS NOT NULL AND e.finished_at IS NULL AND e.next_at <= $1
        AND ($3::integer IS NULL OR e.subscriber_id = $3)
        AND (last.status IS NULL OR last.status <> 'pending')
        AND coalesce(last.sent_at, last.created_at, e.enrolled_at) + st.delay_minutes * interval '1 minute' <= $1
      ORDER BY e.id LIMIT $2
      FOR UPDATE OF e SKIP LOCKED`,
    [now, options.limit, options.subscriberId ?? null],
  );
  let queued = 0;
  for (const row of rows) {
    const { rows: claimed } = await tx.query<{ id: number }>(
      `INSERT INTO sequence_deliveries (enrollment_id, step_id, subject, html, created_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (enrollment_id, step_id) DO NOTHING RETURNING id`,
      [row.enrollment_id, row.step_id, row.subject, row.html, now],
    );
    const delivery = claimed[0];
    if (!delivery) continue;
    const messageId = await enqueueMail(tx, deps, { kind: "sequence", subscriberId: row.subscriber_id, to: row.email });
    // The delivery names its outbox row; the next step is due its delay after this one is sent, so
    // not before now + its delay (one statement for both).
    await tx.query(
      `WITH named AS (UPDATE sequence_deliveries SET message_id = $3 WHERE id = $4)
       UPDATE sequence_enrollments e SET next_at = $2::timestamptz + coalesce((
         SELECT n.delay_minutes FROM sequence_steps n
          WHERE n.sequence_id = e.sequence_id AND n.deleted_at IS NULL
            AND NOT EXISTS (SELECT 1 FROM sequence_deliveries d WHERE d.enrollment_id = e.id AND d.step_id = n.id)
          ORDER BY n.position, n.id LIMIT 1), 0) * interval '1 minute'
        WHERE e.id = $1`,
      [row.enrollment_id, now, messageId, delivery.id],
    );
    queued += 1;
  }
  return queued;
}

/**
 * A sequence limited to a segment (issue 42 point 5): before a step is due, the enrollments of
 * people outside it are closed, so they get none of its steps from then on (someone who leaves the
 * segment midway gets no more). A topic or tag deleted since matches nobody, as in a send.
 */
async function leaveOutOfSegment(tx: SqlQueryable, now: Date, subscriberId: number | undefined): Promise<void> {
  const { rows } = await tx.query<{ id: number; segment: string }>("SELECT id, segment FROM sequences WHERE enabled AND segment IS NOT NULL");
  for (const sequence of rows) {
    const tree = parseSegment(sequence.segment);
    const params: unknown[] = [sequence.id, now, subscriberId ?? null];
    const condition = segmentCondition(tree, await segmentIds(tx, tree, { strict: false }), params);
    await tx.query(
      `UPDATE sequence_enrollments e SET finished_at = $2 FROM subscribers s
        WHERE e.sequence_id = $1 AND s.id = e.subscriber_id AND e.enrolled_at IS NOT NULL AND e.finished_at IS NULL AND e.next_at <= $2
          AND ($3::integer IS NULL OR e.subscriber_id = $3) AND NOT ${condition}`,
      params,
    );
  }
}

/**
 * Closes the enrollments that are over, on `db`: every step queued, or the person is no longer
 * active (unsubscribed, bounced, complained): nothing more goes to them from this sequence.
 */
async function finishEnrollments(db: SqlQueryable, now: Date): Promise<void> {
  await db.query(
    `UPDATE sequence_enrollments e SET finished_at = $1 FROM subscribers s
      WHERE s.id = e.subscriber_id AND e.enrolled_at IS NOT NULL AND e.finished_at IS NULL AND e.next_at <= $1
        AND (s.status <> 'active' OR NOT EXISTS (
              SELECT 1 FROM sequence_steps n WHERE n.sequence_id = e.sequence_id AND n.deleted_at IS NULL
                AND NOT EXISTS (SELECT 1 FROM sequence_deliveries d WHERE d.enrollment_id = e.id AND d.step_id = n.id)))`,
    [now],
  );
}

export interface SequenceRun {
  queued: number;
}

/**
 * One bounded run of the sequences (the every-minute Scheduled Function, `npm start`'s timer):
 * queues every due step in batches, each batch one transaction, until none is due or `stopAt`
 * passes. Overlapping and replayed runs are safe, and a step due while nothing ran goes out on the
 * next run, once. The outbox delivers what it queued.
 */
export async function runDueSequenceSteps(
  deps: Pick<SequencesDeps, "db" | "site" | "now">,
  options: { batch?: number; stopAt?: Date } = {},
): Promise<SequenceRun> {
  const batch = options.batch ?? 100;
  let queued = 0;
  // Imported people may be enrolled before the welcome sequence was ever read (and seeded).
  await seedWelcome(deps.db, deps.site);
  await finishEnrollments(deps.db, deps.now());
  while (!options.stopAt || deps.now() < options.stopAt) {
    const count = await deps.db.transaction((tx) => queueDueSteps(tx, deps, { limit: batch }));
    queued += count;
    if (count < batch) break;
  }
  return { queued };
}
