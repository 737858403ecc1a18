import { enrollDownloadOwner } from "../sequences/sequences.service.ts";
import { randomUUID } from "node:crypto";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { altToStore } from "../shared/image-alt.schema.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { missingFileMessage, resourceGoneMessage } from "../messages.ts";
import { deleteFilesQuietly, type FileStore } from "../files/file-store.ts";
import { checkAndCleanImage, newImageKey, type CleanImage } from "../files/image-cleaning.ts";
import { checkResourceFile, type CheckedFile } from "../files/upload-rules.ts";
import { takeRateLimit, type RateLimit } from "../rate-limit.ts";
import { startDelivery } from "../mail/outbox.ts";
import type { MailDeps } from "../mail/person-mail.ts";
import { queueDownloadEmail } from "./download-email.ts";
import { recordDownloadRequester } from "../subscribers/subscribers.service.ts";
import { downloadTag, setSubscriberTags } from "../subscribers/subscriber-tags.ts";
import type { AdminDownload, DownloadForm, PublicDownload } from "./download.schema.ts";
import type { RequestRebuild } from "../publishing/rebuild.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import { signDownloadLink } from "./download-link.ts";
import { recordWebhookEvent } from "../webhooks/webhook-events.ts";

/** What resources need: the database, the file store, a rebuild after a change, the clock, links and their signer. */
export interface DownloadsDeps {
  db: SqlExecutor;
  files: FileStore;
  rebuild: RequestRebuild;
  now: Clock["now"];
  urls: ApiUrls;
  signer: Signer;
  /** The rate limits' multiplier (RATE_LIMIT_MULTIPLIER, for load tests from one address). */
  env?: { RATE_LIMIT_MULTIPLIER?: number | undefined };
}

/** A resource as the public downloads page sees it (no storage keys). */
interface DownloadRow {
  id: number;
  title: string;
  description: string;
  category: string;
  file_name: string;
  thumbnail_key: string | null;
  thumbnail_alt: string | null;
  download_count: number;
  price: number;
  currency: string;
}

const rowColumns = "id, title, description, category, file_name, thumbnail_key, thumbnail_alt, download_count, price, currency";

/** Visitors asking for links: enough for a team behind one address, not for a script. */
export const downloadRequestLimit: RateLimit = { bucket: "download-request", max: 30, windowMs: 10 * 60 * 1000 };

function toPublic(row: DownloadRow, fileUrl: ApiUrls["file"]): PublicDownload {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    category: row.category,
    fileName: row.file_name,
    thumbnailUrl: row.thumbnail_key ? fileUrl(row.thumbnail_key) : null,
    thumbnailAlt: row.thumbnail_key ? row.thumbnail_alt : null,
    downloadCount: row.download_count,
    price: row.price,
    currency: row.currency,
  };
}

function toAdmin(row: DownloadRow, fileUrl: ApiUrls["file"]): AdminDownload {
  const download = toPublic(row, fileUrl);
  return { ...download, thumbnailPath: download.thumbnailUrl };
}

/** All resources, newest first, for the public page. */
export async function listDownloads(deps: Pick<DownloadsDeps, "db" | "urls">): Promise<PublicDownload[]> {
  const { rows } = await deps.db.query<DownloadRow>(`SELECT ${rowColumns} FROM downloads ORDER BY created_at DESC, id DESC`);
  return rows.map((row) => toPublic(row, deps.urls.file));
}

/** All resources, newest first, with the dashboard's fields. */
export async function listDownloadsForAdmin(deps: Pick<DownloadsDeps, "db" | "urls">): Promise<AdminDownload[]> {
  const { rows } = await deps.db.query<DownloadRow>(`SELECT ${rowColumns} FROM downloads ORDER BY created_at DESC, id DESC`);
  return rows.map((row) => toAdmin(row, deps.urls.file));
}

interface StoredUploads {
  file?: CheckedFile & { key: string };
  thumbnail?: CheckedFile & { key: string };
}

/** Checks both uploads by their bytes before anything is stored (415/413 leave no trace). */
async function checkUploads(input: Pick<DownloadForm, "file" | "thumbnail">): Promise<{ file?: CheckedFile; thumbnail?: CleanImage }> {
  const file = input.file && (await checkResourceFile(input.file));
  const thumbnail = input.thumbnail && (await checkAndCleanImage(input.thumbnail));
  return { ...(file && { file }), ...(thumbnail && { thumbnail }) };
}

/**
 * Stores the uploads, then runs `write` (the row change). If storing or the write fails, the new
 * files are deleted again: no orphaned files, and no row ever points at a missing one.
 */
async function withStoredUploads<T>(
  files: FileStore,
  checked: { file?: CheckedFile; thumbnail?: CleanImage },
  write: (stored: StoredUploads) => Promise<T>,
): Promise<T> {
  const stored: StoredUploads = {};
  try {
    if (checked.file) {
      stored.file = { ...checked.file, key: `downloads/${randomUUID()}.${checked.file.extension}` };
      await files.put(stored.file.key, checked.file.bytes, { contentType: checked.file.contentType, fileName: checked.file.fileName });
    }
    if (checked.thumbnail) {
      stored.thumbnail = { ...checked.thumbnail, key: newImageKey(checked.thumbnail) };
      await files.put(stored.thumbnail.key, checked.thumbnail.bytes, {
        contentType: checked.thumbnail.contentType,
        fileName: checked.thumbnail.fileName,
      });
    }
    return await write(stored);
  } catch (error) {
    await deleteFilesQuietly(files, [stored.file?.key, stored.thumbnail?.key]);
    throw error;
  }
}

/** Adds a resource; the file is required (SPEC §5), the thumbnail optional. */
export async function createDownload(deps: DownloadsDeps, input: DownloadForm): Promise<AdminDownload> {
  if (!input.file) throw new ValidationError(missingFileMessage);
  const checked = await checkUploads(input);
  const row = await withStoredUploads(deps.files, checked, async ({ file, thumbnail }) => {
    if (!file) throw new ValidationError(missingFileMessage);
    const { rows } = await deps.db.query<DownloadRow>(
      `INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size, thumbnail_key, thumbnail_alt, price, currency)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING ${rowColumns}`,
      [
        input.title,
        input.description,
        input.category,
        file.fileName,
        file.key,
        file.contentType,
        file.bytes.byteLength,
        thumbnail?.key ?? null,
        thumbnail ? (altToStore(input.thumbnailAlt, input.thumbnailDecorative) ?? null) : null,
        input.price ?? 0,
        input.currency ?? "usd",
      ],
    );
    return rows[0] as DownloadRow;
  });
  deps.rebuild();
  return toAdmin(row, deps.urls.file);
}

/** Changes a resource; without a new file or thumbnail the current one is kept, else replaced. */
export async function updateDownload(deps: DownloadsDeps, id: number, input: DownloadForm): Promise<AdminDownload> {
  const checked = await checkUploads(input);
  const alt = altToStore(input.thumbnailAlt, input.thumbnailDecorative);
  const row = await withStoredUploads(deps.files, checked, async ({ file, thumbnail }) => {
    // One statement: the old keys come from the row as it was locked, so the files we delete
    // afterwards are exactly the ones this update replaced.
    const { rows } = await deps.db.query<DownloadRow & { old_file_key: string; old_thumbnail_key: string | null }>(
      `UPDATE downloads AS d SET title = $2, description = $3, category = $4,
              file_name = COALESCE($5, d.file_name), file_key = COALESCE($6, d.file_key),
              file_type = COALESCE($7, d.file_type), file_size = COALESCE($8, d.file_size),
              thumbnail_key = COALESCE($9, d.thumbnail_key), updated_at = $10,
              thumbnail_alt = CASE WHEN $9::text IS NOT NULL OR $11::boolean THEN $12::text ELSE d.thumbnail_alt END,
              price = COALESCE($13::integer, d.price), currency = COALESCE($14::text, d.currency)
         FROM (SELECT id, file_key, thumbnail_key FROM downloads WHERE id = $1 FOR UPDATE) AS old
        WHERE d.id = old.id
        RETURNING d.id, d.title, d.description, d.category, d.file_name, d.thumbnail_key, d.thumbnail_alt, d.download_count, d.price, d.currency,
                  old.file_key AS old_file_key, old.thumbnail_key AS old_thumbnail_key`,
      [
        id,
        input.title,
        input.description,
        input.category,
        file?.fileName ?? null,
        file?.key ?? null,
        file?.contentType ?? null,
        file?.bytes.byteLength ?? null,
        thumbnail?.key ?? null,
        deps.now(),
        // A new thumbnail takes the alt given with it; without one, a given alt replaces the stored one.
        alt !== undefined,
        alt ?? null,
        // Left out keeps the price and currency; a given price (0 = free) replaces it.
        input.price ?? null,
        input.currency ?? null,
      ],
    );
    const updated = rows[0];
    if (!updated) throw new NotFoundError(resourceGoneMessage);
    return updated;
  });
  await deleteFilesQuietly(deps.files, [checked.file && row.old_file_key, checked.thumbnail && row.old_thumbnail_key]);
  deps.rebuild();
  return toAdmin(row, deps.urls.file);
}

/** Removes a resource, then its file and thumbnail. */
export async function deleteDownload(deps: DownloadsDeps, id: number): Promise<void> {
  const { rows } = await deps.db.query<{ file_key: string; thumbnail_key: string | null }>(
    "DELETE FROM downloads WHERE id = $1 RETURNING file_key, thumbnail_key",
    [id],
  );
  const deleted = rows[0];
  if (!deleted) throw new NotFoundError(resourceGoneMessage);
  deps.rebuild();
  await deleteFilesQuietly(deps.files, [deleted.file_key, deleted.thumbnail_key]);
}

/** A download request for a priced resource. */
export const paidResourceMessage = "This resource is paid for: buy it to download it.";
/** A paid resource's link without a standing payment (none, refunded, disputed). */
export const purchaseRevokedMessage = "This download link no longer works: the payment behind it was refunded or disputed.";

export interface DownloadRequestInput {
  id: number;
  /** Already checked and lower-cased by `downloadRequestSchema`. */
  email: string;
  clientIp: string;
}

/**
 * A visitor gives their email for a resource: the count rises by one, they are recorded as a
 * subscriber (`recordDownloadRequester`: pending if new, never made active here), and they get a
 * signed link valid for 24 hours — in the answer at once, and by email (naming its recipient), with an invitation to the
 * newsletter unless they are on it (one email per address and resource per 10 minutes, so the form
 * cannot bomb an inbox). The email is queued in the same transaction and delivered after the
 * answer: a mail outage delays it, never fails the answer or loses it.
 */
export async function requestDownload(
  deps: MailDeps,
  input: DownloadRequestInput,
  limit: RateLimit = downloadRequestLimit,
): Promise<{ downloadUrl: string }> {
  const now = deps.now();
  const queued = await deps.db.transaction(async (tx) => {
    // Row-locked increment: exact under concurrency; rolled back with the signup if either fails.
    // A priced resource is never traded for an email: only its Checkout releases it.
    const { rows } = await tx.query<{ title: string }>(
      "UPDATE downloads SET download_count = download_count + 1 WHERE id = $1 AND price = 0 RETURNING title",
      [input.id],
    );
    if (!rows[0]) {
      const { rows: priced } = await tx.query("SELECT 1 FROM downloads WHERE id = $1", [input.id]);
      throw priced[0] ? new ValidationError(paidResourceMessage) : new NotFoundError(resourceGoneMessage);
    }
    await takeRateLimit({ ...deps, db: tx }, limit, input.clientIp);
    const { recipient, consentId } = await recordDownloadRequester(tx, input.email, now, deps);
    // Where the person came from (issue 42 point 4): kept with the first download's date.
    await setSubscriberTags(tx, [recipient.id], [downloadTag({ id: input.id, title: rows[0].title })], {
      source: "download",
      detail: `downloaded ${rows[0].title}`,
      at: now,
    });
    await recordWebhookEvent(tx, deps, "download.requested", { downloadId: input.id, title: rows[0].title, subscriber: recipient }, recipient.id);
    // No sequence starts here: whoever typed the address may not own it (the emailed link proves it, see `downloadFile`).
    return queueDownloadEmail(tx, deps, recipient, { downloadId: input.id, consentId });
  });
  if (queued) startDelivery(deps);
  return { downloadUrl: deps.urls.downloadFile(input.id, signDownloadLink(deps.signer, input.id, now)) };
}

/**
 * The stored file of a resource, with the name it is offered under. `owner` is the subscriber the
 * link was emailed to, when the link names one and is being opened (GET, not HEAD): they join the
 * resource's sequence (`enrollDownloadOwner`).
 */
export async function downloadFile(
  deps: Pick<DownloadsDeps, "db" | "files" | "now">,
  id: number,
  owner: number | null = null,
  purchase: number | null = null,
): Promise<{ data: Uint8Array; contentType: string; fileName: string }> {
  const { rows } = await deps.db.query<{ file_key: string; file_name: string; file_type: string; price: number; paid: boolean }>(
    `SELECT file_key, file_name, file_type, price,
            EXISTS (SELECT 1 FROM payments p WHERE p.id = $2 AND p.status = 'paid'
                       AND (p.download_id = downloads.id
                            -- A supporter's free copy names their membership: it works while Stripe still bills it (decision 0085).
                            OR (p.kind = 'membership' AND EXISTS (SELECT 1 FROM supporters sp
                                 WHERE sp.subscription_id = p.subscription_id AND sp.status IN ('active', 'trialing', 'past_due'))))) AS paid
       FROM downloads WHERE id = $1`,
    [id, purchase],
  );
  const row = rows[0];
  // A paid resource: only through its payment's link, and only while the payment stands (a refund or dispute stops it).
  if (row && row.price > 0 && !row.paid) throw new ForbiddenError(purchaseRevokedMessage);
  const stored = row && (await deps.files.get(row.file_key));
  if (!row || !stored) throw new NotFoundError(resourceGoneMessage);
  if (owner !== null) await enrollDownloadOwner(deps, { subscriberId: owner, downloadId: id });
  return { data: stored.data, contentType: row.file_type, fileName: row.file_name };
}
