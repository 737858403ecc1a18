import { Readable } from "node:stream";
import { backupArchive, getRestoreRun, listBackups, startBackup, startRestore } from "../../core/backups/backup-runs.ts";
import { attachment } from "../attachment.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { backupBytesHeader, backupDownloadPath, backupPartsHeader, partSuffix, type backupsRoutes } from "./backups.routes.ts";

export const backupsHandlers: RouteHandlers<typeof backupsRoutes> = {
  list: ({ deps }) => listBackups(deps, backupDownloadPath),
  create: ({ deps }) => startBackup(deps),
  download: async ({ params, query, deps }) => {
    const archive = await backupArchive(deps, params.id, query);
    // Streamed from Blobs: the whole archive part by part (never one buffer), or the one part asked for.
    const body = Readable.toWeb(Readable.from(archive.chunks)) as ReadableStream<Uint8Array>;
    const name = `no-filter-backup-${archive.fileName}${archive.part === null ? "" : `.${partSuffix(archive.part)}`}`;
    return attachment(
      body,
      { fileName: name, contentType: archive.part === null ? "application/zip" : "application/octet-stream", bytes: archive.bytes },
      {
        [backupPartsHeader]: String(archive.parts),
        ...(archive.totalBytes !== null && { [backupBytesHeader]: String(archive.totalBytes) }),
      },
    );
  },
  restore: ({ body, deps }) => startRestore(deps, body),
  restoreRun: ({ params, deps }) => getRestoreRun(deps, params.id),
};
