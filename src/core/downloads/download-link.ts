import type { SignedDownload } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";

/** How long a link handed out after the email step stays valid. */
export const downloadLinkLifetimeSeconds = 24 * 60 * 60;

/** How long a paid resource's link stays valid (the receipt email's and the thank-you page's): 30 days. */
export const purchaseLinkLifetimeSeconds = 30 * 24 * 60 * 60;

const payload = (id: number, expires: number, recipient: number | null, purchase: number | null = null) =>
  purchase !== null
    ? `${String(id)}.${String(expires)}.p${String(purchase)}`
    : recipient === null
      ? `${String(id)}.${String(expires)}`
      : `${String(id)}.${String(expires)}.${String(recipient)}`;

/**
 * A paid resource's link: it names its payment (`p`, signed with the rest), so a refund or a
 * dispute, which marks the payment, stops the link however long it has left (issue 47 point 3).
 */
export function signPurchaseLink(
  signer: Signer,
  id: number,
  paymentId: number,
  now: Date,
  lifetimeSeconds = purchaseLinkLifetimeSeconds,
): SignedDownload {
  const expires = Math.floor(now.getTime() / 1000) + lifetimeSeconds;
  return { expires: String(expires), signature: signer.sign("download-link", payload(id, expires, null, paymentId)), p: String(paymentId) };
}

export function signDownloadLink(signer: Signer, id: number, now: Date, recipient: number | null = null): SignedDownload {
  const expires = Math.floor(now.getTime() / 1000) + downloadLinkLifetimeSeconds;
  const signature = signer.sign("download-link", payload(id, expires, recipient));
  return recipient === null ? { expires: String(expires), signature } : { expires: String(expires), signature, r: String(recipient) };
}

/**
 * True when the link's signature is ours for this id (and, on the emailed link, its recipient) and
 * it has not expired (constant-time compare).
 */
export function verifyDownloadLink(
  signer: Signer,
  link: { id: number; expires: string | null; signature: string | null; recipient?: string | null; purchase?: string | null },
  now: Date,
): boolean {
  if (!link.expires || !/^\d{1,12}$/.test(link.expires) || !link.signature) return false;
  const recipient = link.recipient ?? null;
  if (recipient !== null && !/^[1-9]\d{0,9}$/.test(recipient)) return false;
  const purchase = link.purchase ?? null;
  if (purchase !== null && (recipient !== null || !/^[1-9]\d{0,14}$/.test(purchase))) return false;
  const expires = Number(link.expires);
  if (expires <= Math.floor(now.getTime() / 1000)) return false;
  return signer.verify(
    "download-link",
    payload(link.id, expires, recipient === null ? null : Number(recipient), purchase === null ? null : Number(purchase)),
    link.signature,
  );
}
