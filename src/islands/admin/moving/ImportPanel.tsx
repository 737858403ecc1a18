import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type SubmitEvent } from "react";
import { importsRoutes } from "../../../api/routes/imports.routes.ts";
import { maxFileBytes } from "../../../core/files/upload-limits.ts";
import { importSources, type ImportSource } from "../../../core/imports/import.schema.ts";
import { importConsentWording } from "../../../core/subscribers/subscriber-import.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { ImportReportView } from "./ImportReportView.tsx";
import { maxUploadBytes, uploadInParts, uploadTooLargeMessage } from "./upload-in-parts.ts";

const formId = "site-import";

const sourceLabels: Record<ImportSource, string> = {
  ghost: "Ghost (JSON export)",
  wordpress: "WordPress (WXR export, .xml)",
  substack: "Substack (export .zip)",
  medium: "Medium (export .zip)",
};

/** The exports that can carry an email list, and what the consent tick calls it. */
const listLabels: Partial<Record<ImportSource, string>> = { substack: "Substack email list", ghost: "Ghost members" };

interface Chosen {
  source: ImportSource;
  file: File;
  siteUrl: string;
  consent: boolean;
}

/**
 * Moving in: the owner picks an export, reads the dry run's report, then confirms the import. The
 * run goes on after the answer; its report is read again every second until it is done.
 */
export function ImportPanel() {
  const queryClient = useQueryClient();
  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [runId, setRunId] = useState<number | null>(null);
  const [fileError, setFileError] = useState<string | undefined>();
  const [uploaded, setUploaded] = useState<number | null>(null);
  const [source, setSource] = useState<ImportSource>("ghost");
  const listLabel = listLabels[source];
  const start = useMutation({
    mutationFn: async (input: Chosen & { dryRun: boolean }) => {
      // A file over one request's limit goes up in parts first.
      const sent = input.file.size > maxFileBytes ? { uploadId: await uploadInParts(input.file, setUploaded) } : { file: input.file };
      setUploaded(null);
      return callApi(importsRoutes.create, {
        body: { source: input.source, ...sent, siteUrl: input.siteUrl, consent: String(input.consent), dryRun: String(input.dryRun) },
      });
    },
    onSuccess: ({ id }) => setRunId(id),
    onError: (error) => showErrorToast(error.message, "Import Failed"),
  });
  const run = useQuery({
    queryKey: [importsRoutes.get.path, runId],
    queryFn: () => callApi(importsRoutes.get, { params: { id: runId ?? 0 } }),
    enabled: runId !== null,
    refetchInterval: (query) => (query.state.data?.status === "running" ? 1000 : false),
  });
  const current = run.data?.id === runId ? run.data : undefined;
  const finishedImport = current && !current.dryRun && current.status === "done" ? current : undefined;
  useEffect(() => {
    if (!finishedImport) return;
    setChosen(null);
    showToast({ title: "Import Complete", description: `Imported ${String(finishedImport.report.posts.new)} posts.` });
    void queryClient.invalidateQueries({ queryKey: queries.posts.queryKey });
  }, [finishedImport, queryClient]);

  const dryRun = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const file = data.get("file");
    if (!(file instanceof File) || file.size === 0) return setFileError("Please choose the export file");
    if (file.size > maxUploadBytes) return setFileError(uploadTooLargeMessage);
    setFileError(undefined);
    const input: Chosen = {
      source: data.get("source") as ImportSource,
      file,
      siteUrl: (data.get("siteUrl") as string | null)?.trim() ?? "",
      consent: data.get("consent") === "on",
    };
    setChosen(input);
    start.mutate({ ...input, dryRun: true });
  };

  const readyToImport = current?.dryRun && current.status === "done" && chosen;
  return (
    <section aria-labelledby="import-title" className="border-3 border-ink bg-paper p-4">
      <h3 id="import-title" className="font-bold uppercase tracking-wide">
        Import a Blog
      </h3>
      <p className="mt-1 text-sm">
        Bring your posts from Ghost, WordPress, Substack or Medium. A dry run comes first: read what will happen, then import. Importing the same file
        again adds nothing.
      </p>
      <form id={formId} className="mt-3 space-y-3" onSubmit={dryRun} noValidate>
        <Field label="From" name="source" idPrefix={formId}>
          {(props) => (
            <select {...props} className="admin-input" value={source} onChange={(event) => setSource(event.target.value as ImportSource)}>
              {importSources.map((source) => (
                <option key={source} value={source}>
                  {sourceLabels[source]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Export file" name="file" idPrefix={formId} error={fileError}>
          {(props) => <input {...props} type="file" accept=".json,.xml,.wxr,.zip" className="admin-file" />}
        </Field>
        <Field
          label="Old site address"
          name="siteUrl"
          idPrefix={formId}
          hint="Where the images live, e.g. https://blog.example.com (Ghost needs it)."
        >
          {(props) => <input {...props} type="url" className="admin-input" placeholder="https://" />}
        </Field>
        {listLabel && (
          // Only an export that holds an email list asks: its people come in only with this tick.
          <label key={source} className="flex items-start gap-2 text-sm font-semibold">
            <input type="checkbox" name="consent" className="mt-1" />
            {listLabel}: {importConsentWording}
          </label>
        )}
        <button type="submit" className="btn py-2 text-sm" disabled={start.isPending || current?.status === "running"}>
          Dry Run
        </button>
      </form>
      <div role="status" className="mt-3 text-sm">
        {uploaded !== null && <p>Uploading… {Math.round(uploaded * 100)}%</p>}
        {current && <ImportReportView run={current} />}
      </div>
      {readyToImport && (
        <button type="button" className="btn mt-3 py-2 text-sm" disabled={start.isPending} onClick={() => start.mutate({ ...chosen, dryRun: false })}>
          Import Now
        </button>
      )}
    </section>
  );
}
