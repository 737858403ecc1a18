import { Readable } from "node:stream";
import { backupArchive, getRestoreRun, listBackups, startBackup, startRestore } from "../../core/backups/backup-runs.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { backupDownloadPath, type backupsRoutes } from "./backups.routes.ts";

export const backupsHandlers: RouteHandlers<typeof backupsRoutes> = {
  list: ({ deps }) => listBackups(deps, backupDownloadPath),
  create: ({ deps }) => startBackup(deps),
  download: async ({ params, query, deps }) => {
    const archive = await backupArchive(deps, params.id, query);
    // Streamed part by part from Blobs: a backup of any size is never one buffer.
    const body = Readable.toWeb(Readable.from(archive.chunks)) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        "content-type": "application/zip",
        "content-disposition": `attachment; filename="no-filter-backup-${archive.fileName}"`,
        ...(archive.bytes !== null && { "content-length": String(archive.bytes) }),
        "referrer-policy": "no-referrer",
        "cache-control": "private, no-store",
      },
    });
  },
  restore: ({ body, deps }) => startRestore(deps, body),
  restoreRun: ({ params, deps }) => getRestoreRun(deps, params.id),
};
