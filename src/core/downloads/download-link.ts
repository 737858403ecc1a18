import type { SignedDownload } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";

/** How long a link handed out after the email step stays valid. */
export const downloadLinkLifetimeSeconds = 24 * 60 * 60;

export function signDownloadLink(signer: Signer, id: number, now: Date): SignedDownload {
  const expires = Math.floor(now.getTime() / 1000) + downloadLinkLifetimeSeconds;
  return { expires: String(expires), signature: signer.sign("download-link", `${String(id)}.${String(expires)}`) };
}

/** True when the link's signature is ours for this id and it has not expired (constant-time compare). */
export function verifyDownloadLink(signer: Signer, link: { id: number; expires: string | null; signature: string | null }, now: Date): boolean {
  if (!link.expires || !/^\d{1,12}$/.test(link.expires) || !link.signature) return false;
  const expires = Number(link.expires);
  if (expires <= Math.floor(now.getTime() / 1000)) return false;
  return signer.verify("download-link", `${String(link.id)}.${String(expires)}`, link.signature);
}
