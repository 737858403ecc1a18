import type { SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError } from "../errors.ts";
import { renderDownloadEmail } from "../mail/emails.ts";
import { enqueueMail, type OutboxMessage, type RenderedMail } from "../mail/outbox.ts";
import { confirmUrl, oneClickHeaders, personMailRenderer, unsubscribeUrl, type MailDeps, type Recipient } from "../mail/person-mail.ts";
import { resourceGoneMessage } from "../messages.ts";
import { signDownloadLink } from "./download-link.ts";

/** The same resource is emailed to an address at most once in this time. */
export const downloadEmailIntervalMs = 10 * 60 * 1000;

/**
 * Queues a requested resource's email (with the newsletter invitation when `consentId` is given)
 * unless this resource was queued for this subscriber within `downloadEmailIntervalMs` and has not
 * failed: the download form cannot bomb an inbox, and whoever asked again has the link in the
 * answer. Answers whether it was queued. Atomic when `tx` holds the subscriber's row lock (taken by
 * `recordDownloadRequester`'s upsert): concurrent requests for one address take turns, and each
 * sees the row the one before it committed — 10 parallel requests queue one email.
 */
export async function queueDownloadEmail(
  tx: SqlQueryable,
  deps: Pick<MailDeps, "site" | "now">,
  recipient: Recipient,
  input: { downloadId: number; consentId: number | null },
): Promise<boolean> {
  const queued = await enqueueMail(
    tx,
    deps,
    { kind: "download", subscriberId: recipient.id, to: recipient.email, downloadId: input.downloadId, consentId: input.consentId },
    {
      where: `NOT EXISTS (SELECT 1 FROM outbox
                           WHERE subscriber_id = $1 AND download_id = $2 AND kind = 'download' AND status <> 'failed' AND created_at > $3)`,
      params: [recipient.id, input.downloadId, new Date(deps.now().getTime() - downloadEmailIntervalMs)],
    },
  );
  return queued !== undefined;
}

/**
 * Makes one delivery run's download emails, at delivery: the link is signed now, so a message held
 * back by an outage arrives with a download link valid 24 hours from then (and a confirmation link
 * valid 7 days when it carries the newsletter invitation). Rendered once a run for each resource and
 * filled with each person's links (`renderOnce`); a resource deleted since refuses (the row fails).
 */
export function downloadEmailRenderer(deps: Omit<MailDeps, "mail">): (message: OutboxMessage) => Promise<RenderedMail> {
  return personMailRenderer(deps, async (message, { recipient, identity, shape, once }) => {
    const unsubscribe = unsubscribeUrl(deps, recipient);
    const downloadId = message.downloadId;
    const { rows } = await deps.db.query<{ title: string }>("SELECT title FROM downloads WHERE id = $1", [downloadId]);
    const resource = rows[0];
    if (downloadId === null || !resource) throw new NotFoundError(resourceGoneMessage);
    const downloadUrl = deps.site.absolute(deps.urls.downloadFile(downloadId, signDownloadLink(deps.signer, downloadId, deps.now(), recipient.id)));
    const content =
      message.consentId === null
        ? await once(shape("download", { resourceTitle: resource.title }), { downloadUrl, unsubscribeUrl: unsubscribe }, (urls) =>
            renderDownloadEmail({ ...identity, resourceTitle: resource.title, confirmUrl: null, ...urls }),
          )
        : await once(
            shape("download-invitation", { resourceTitle: resource.title }),
            { downloadUrl, unsubscribeUrl: unsubscribe, confirmUrl: confirmUrl(deps, recipient, message.consentId) },
            (urls) => renderDownloadEmail({ ...identity, resourceTitle: resource.title, ...urls }),
          );
    return { ...content, headers: oneClickHeaders(unsubscribe) };
  });
}
