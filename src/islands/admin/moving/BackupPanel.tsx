import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent, type MouseEvent } from "react";
import { backupsRoutes } from "../../../api/routes/backups.routes.ts";
import { maxFileBytes } from "../../../core/files/upload-limits.ts";
import { callApi } from "../api-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { ListState } from "../ui/ListState.tsx";
import { downloadInParts, saveBlob } from "./download-in-parts.ts";
import { maxUploadBytes, uploadInParts, uploadTooLargeMessage } from "./upload-in-parts.ts";

const backupsKey = [backupsRoutes.list.path];
const formId = "site-restore";

const size = (bytes: number | null) => (bytes === null ? "" : `${(bytes / 1024 / 1024).toFixed(1)} MB`);

/**
 * Moving out: a backup of the whole site (made in the background; listed with a download link that
 * works for an hour), and a restore from one, which replaces a site's content only when asked.
 */
export function BackupPanel() {
  const queryClient = useQueryClient();
  const backups = useQuery({
    queryKey: backupsKey,
    queryFn: () => callApi(backupsRoutes.list),
    refetchInterval: (query) => (query.state.data?.some((backup) => backup.status === "running") ? 1000 : false),
  });
  const make = useMutation({
    mutationFn: () => callApi(backupsRoutes.create),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backupsKey }),
    onError: (error) => showErrorToast(error.message, "Backup Failed"),
  });
  const [restoreId, setRestoreId] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const restore = useMutation({
    mutationFn: async (input: { file: File; replace: boolean }) => {
      // An archive over one request's limit goes up in parts first.
      const sent = input.file.size > maxFileBytes ? { uploadId: await uploadInParts(input.file, () => undefined) } : { file: input.file };
      return callApi(backupsRoutes.restore, { body: { ...sent, replace: String(input.replace) } });
    },
    onSuccess: ({ id }) => setRestoreId(id),
    onError: (error) => showErrorToast(error.message, "Restore Refused"),
  });
  const restoreRun = useQuery({
    queryKey: [backupsRoutes.restoreRun.path, restoreId],
    queryFn: () => callApi(backupsRoutes.restoreRun, { params: { id: restoreId ?? 0 } }),
    enabled: restoreId !== null,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });

  // A download in progress: which backup, and which of its parts.
  const [download, setDownload] = useState<{ id: number; part: number; parts: number } | null>(null);
  const startDownload = (event: MouseEvent<HTMLAnchorElement>, id: number) => {
    // The link itself answers the whole archive (curl, a right click); the dashboard takes it part by part.
    event.preventDefault();
    if (download) return;
    setDownload({ id, part: 1, parts: 0 });
    void (async () => {
      try {
        // A fresh link: the one on screen may be older than its hour.
        const fresh = (await backups.refetch()).data?.find((backup) => backup.id === id)?.downloadUrl;
        if (!fresh) throw new Error("This backup is no longer kept.");
        const { blob, fileName } = await downloadInParts(fresh, (part, parts) => setDownload({ id, part, parts }));
        saveBlob(blob, fileName);
        showToast({ title: "Backup Downloaded", description: fileName });
      } catch (error) {
        showErrorToast(error instanceof Error ? error.message : String(error), "Download Failed");
      } finally {
        setDownload(null);
      }
    })();
  };

  const submitRestore = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setFileError("Please choose a backup archive (.zip)");
    if (file.size > maxUploadBytes) return setFileError(uploadTooLargeMessage);
    setFileError(undefined);
    restore.mutate(
      { file, replace: data.get("replace") === "on" },
      { onSuccess: () => showToast({ title: "Restore Started", description: "Every file in the archive is checked before anything changes." }) },
    );
  };

  const list = backups.data ?? [];
  const done = restoreRun.data;
  return (
    <section aria-labelledby="backup-title" className="border-3 border-ink bg-paper p-4">
      <h3 id="backup-title" className="font-bold uppercase tracking-wide">
        Backups
      </h3>
      <p className="mt-1 text-sm">
        One zip with every post, resource, subscriber, setting and file. Made every week too; the last 8 are kept. Passkeys and recovery codes are not
        in it.
      </p>
      <button type="button" className="btn mt-3 py-2 text-sm" onClick={() => make.mutate()} disabled={make.isPending}>
        Back Up Now
      </button>
      <ListState loading={backups.isPending} error={backups.error} empty={list.length === 0} emptyText="No backups yet." />
      <ul className="mt-3 space-y-2 text-sm">
        {list.map((backup) => (
          <li key={backup.id} className="flex flex-wrap items-center gap-3">
            <span>{new Date(backup.createdAt).toLocaleString()}</span>
            <span>{backup.status === "done" ? size(backup.bytes) : backup.status === "running" ? "Working…" : "Failed"}</span>
            {backup.downloadUrl && (
              <a
                className="font-bold underline"
                href={backup.downloadUrl}
                download
                aria-disabled={download !== null}
                onClick={(event) => startDownload(event, backup.id)}
              >
                Download
              </a>
            )}
            {download?.id === backup.id && (
              <span role="status">
                {download.parts === 0 ? "Downloading…" : `Downloading part ${String(download.part)} of ${String(download.parts)}…`}
              </span>
            )}
          </li>
        ))}
      </ul>
      <h4 className="mt-6 font-bold uppercase tracking-wide">Restore</h4>
      <form id={formId} className="mt-2 space-y-3" onSubmit={submitRestore} noValidate>
        <Field label="Backup archive" name="file" idPrefix={formId} error={fileError}>
          {(props) => <input {...props} type="file" accept=".zip,application/zip" className="admin-file" />}
        </Field>
        <label className="flex items-start gap-2 text-sm font-semibold">
          <input type="checkbox" name="replace" className="mt-1" />
          Replace this site&apos;s posts, resources and subscribers
        </label>
        <button type="submit" className="btn py-2 text-sm" disabled={restore.isPending || done?.status === "running"}>
          Restore
        </button>
      </form>
      <div role="status" className="mt-3 text-sm">
        {done?.status === "running" && <p>Restoring…</p>}
        {done?.status === "done" && done.report && (
          <p className="font-bold">
            Restored {done.report.rows.toLocaleString("en-US")} rows in {done.report.tables} tables and {done.report.files} files.
          </p>
        )}
        {done?.status === "done" && done.report?.skippedCount ? (
          <div data-testid="restore-skipped">
            <p>Left out {done.report.skippedCount.toLocaleString("en-US")}, which fail the checks a save makes:</p>
            <ul className="list-disc pl-5">
              {done.report.skipped?.map((entry) => (
                <li key={`${entry.entry} ${entry.row ?? ""}`}>
                  {entry.entry}
                  {entry.row && ` (${entry.row})`}: {entry.reason}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {done?.status === "failed" && (
          <p role="alert" className="font-semibold text-signal-dark">
            {done.error}
          </p>
        )}
      </div>
    </section>
  );
}
