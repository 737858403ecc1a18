import { z } from "zod";
import { backupLinkQuerySchema, backupSchema, restoreFormSchema, restoreRunSchema } from "../../core/backups/backup.schema.ts";
import { createdRunSchema } from "../../core/imports/import.schema.ts";
import { apiPaths, pathWith } from "../api-paths.ts";
import { declareRoute, fileAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

export const backupsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.backups,
    access: "admin",
    scope: "none",
    summary: "The backups kept (the newest 8), newest first; a finished one carries a signed download link valid for an hour",
    answers: { 200: jsonAnswer(z.array(backupSchema), "The backups") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.backups,
    access: "admin",
    scope: "none",
    summary: "Starts a backup of the whole site: every table as JSON Lines, every stored file, the settings and a manifest with SHA-256 per entry",
    answers: { 202: jsonAnswer(createdRunSchema, "The backup, started; it shows in `GET /api/backups`") },
  }),
  download: declareRoute({
    method: "GET",
    path: apiPaths.backupDownload,
    access: "admin",
    scope: "none",
    summary:
      "A backup's archive, for the owner's session and a signed, unexpired link: the whole of it, or with `part=n` (1-based) that one part of it; `x-backup-parts` gives the count and `x-backup-bytes` the whole archive's size; a part that does not exist answers 404",
    params: rowIdParams("Backup not found"),
    query: backupLinkQuerySchema,
    answers: { 200: fileAnswer("application/zip", "The archive (or one part of it, `application/octet-stream`), as an attachment") },
  }),
  restore: declareRoute({
    method: "POST",
    path: apiPaths.restores,
    access: "admin",
    scope: "none",
    summary:
      "Starts a restore from a backup archive: refused (409) for a site with content unless `replace=true`; every hash is checked before anything changes",
    body: { type: "multipart", schema: restoreFormSchema },
    answers: { 202: jsonAnswer(createdRunSchema, "The restore, started; its progress at `GET /api/restores/{id}`") },
    errors: [409],
  }),
  restoreRun: declareRoute({
    method: "GET",
    path: apiPaths.restoreRun,
    access: "admin",
    scope: "none",
    summary: "A restore: running, done (with what was restored) or failed (with the reason; nothing was changed)",
    params: rowIdParams("Restore not found"),
    answers: { 200: jsonAnswer(restoreRunSchema, "The restore") },
  }),
};

/** Where a backup's archive is downloaded (the signature goes in the query). */
export const backupDownloadPath = (id: number): string => pathWith(apiPaths.backupDownload, { id });

/** How many parts a backup's archive is stored in (every download answer carries it; a HEAD request too). */
export const backupPartsHeader = "x-backup-parts";
/** The whole archive's size in bytes, on every download answer (a part's own size is its `content-length`). */
export const backupBytesHeader = "x-backup-bytes";
/** A part's file name ends as split archives do, `….zip.001`, `….zip.002`: joined in order (`cat`) they are the archive. */
export const partSuffix = (part: number): string => String(part).padStart(3, "0");
