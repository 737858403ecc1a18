import { siteScriptApi } from "./site-script-paths.ts";

/**
 * Download counts shown on resource cards, kept in step across islands: the download button
 * announces a new count, the island loader (`hydrate.ts`) shows it (a window event, as for toasts).
 */
export const countEventName = "nf:download-count";

/** A resource's new count (`count`), or downloads just added to what is shown (`added`). */
export type CountUpdate = { id: number } & ({ count: number } | { added: number });

export function announceCount(update: CountUpdate): void {
  window.dispatchEvent(new CustomEvent<CountUpdate>(countEventName, { detail: update }));
}

let refreshing: Promise<void> | null = null;

/** Fetches the current counts once per page and announces each (errors leave the built counts). */
export function refreshCounts(): Promise<void> {
  refreshing ??= fetch(siteScriptApi.downloads, { credentials: "same-origin" })
    .then(async (response) => {
      if (!response.ok) return;
      const downloads = (await response.json()) as { id: number; downloadCount: number }[];
      for (const download of downloads) announceCount({ id: download.id, count: download.downloadCount });
    })
    .catch(() => undefined);
  return refreshing;
}
