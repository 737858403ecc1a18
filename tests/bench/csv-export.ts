/**
 * The subscribers' CSV export under a running `npm start`: time to download it all, and the
 * server's resident memory before and at its peak during the export (flat memory: the export
 * streams page by page).
 */
import { adminCookie } from "./admin-session.ts";
import { treeRss, trackPeakMemory } from "./peak-memory.ts";

export interface CsvExportFigures {
  rows: number;
  bytes: number;
  seconds: number;
  serverRssBeforeBytes: number;
  serverRssPeakBytes: number;
}

/** Downloads the export as the dashboard does; `serverPid` is the `npm start` process. */
export async function measureCsvExport(siteUrl: string, password: string, serverPid: number): Promise<CsvExportFigures> {
  const cookie = await adminCookie(siteUrl, password);
  const serverRssBeforeBytes = await treeRss(serverPid);
  const memory = trackPeakMemory(serverPid, 50);
  const started = performance.now();
  const response = await fetch(new URL("/api/newsletter/subscribers/export", siteUrl), { headers: { cookie } });
  if (!response.ok || !response.body) throw new Error(`export failed: ${String(response.status)}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  return { rows: lines - 1, bytes, seconds, serverRssBeforeBytes, serverRssPeakBytes: await memory.stop() };
}
