import { backupBytesHeader, backupPartsHeader } from "../../../api/routes/backups.routes.ts";
import { apiErrorFrom } from "../api-client.ts";

export const downloadCutOffMessage = "The download was cut off. Please try again.";

/** The whole archive's name, from a part's `….zip.001`. */
const archiveNameOf = (contentDisposition: string | null): string =>
  /filename="([^"]+)\.\d{3,}"/.exec(contentDisposition ?? "")?.[1] ?? "no-filter-backup.zip";

/**
 * Downloads a backup's archive one part at a time (`?part=n` on its signed link: on Netlify one
 * function response is cut at 20 MB / 10 s, each part is 8 MB) and answers the parts joined as one
 * `Blob` (the browser may keep a large one on disk) with the archive's file name. `onPart` hears
 * each part as it starts, with the count (known from the first part's `x-backup-parts`). Throws
 * when an answer fails or the bytes do not add up to the archive's size. Why: decision 0040.
 */
export async function downloadInParts(link: string, onPart: (part: number, parts: number) => void): Promise<{ blob: Blob; fileName: string }> {
  const parts: Blob[] = [];
  let count = 1;
  let total: number | null = null;
  let fileName = "no-filter-backup.zip";
  for (let part = 1; part <= count; part++) {
    const url = new URL(link, window.location.origin);
    url.searchParams.set("part", String(part));
    if (part > 1) onPart(part, count);
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw apiErrorFrom(response.status, response.statusText, await response.text());
    if (part === 1) {
      count = Number(response.headers.get(backupPartsHeader) ?? "1");
      total = response.headers.has(backupBytesHeader) ? Number(response.headers.get(backupBytesHeader)) : null;
      fileName = archiveNameOf(response.headers.get("content-disposition"));
      if (!Number.isInteger(count) || count < 1) throw new Error(downloadCutOffMessage);
      onPart(part, count);
    }
    parts.push(await response.blob());
  }
  const blob = new Blob(parts, { type: "application/zip" });
  if (total !== null && blob.size !== total) throw new Error(downloadCutOffMessage);
  return { blob, fileName };
}

/** Saves a `Blob` as a file through an object URL and an `<a download>`, and releases the URL after. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement("a");
  anchor.href = url;
  anchor.download = fileName;
  anchor.hidden = true;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // The save has started from the click; some browsers still read the URL just after, so it goes a little later.
  setTimeout(() => {
    URL.revokeObjectURL(url);
  }, 10_000);
}
