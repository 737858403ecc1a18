import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { newsletterRoutes } from "../../../api/routes/newsletter.routes.ts";
import { importConsentWording, subscriberImportFormSchema } from "../../../core/subscribers/subscriber-import.schema.ts";
import { maxFileBytes } from "../../../core/files/upload-limits.ts";
import { fileTooLargeMessage } from "../../../core/messages.ts";
import { callApi } from "../api-client.ts";
import { focusFirstInvalid, recheckOnChange, validateForm, type FieldErrors } from "../form-errors.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { ImportResult, importSummary } from "./ImportResult.tsx";

const formId = "subscriber-import";

/** Import a CSV from another tool, once the owner confirms these people agreed to the newsletter. */
export function ImportPanel() {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const importer = useMutation({
    mutationFn: (input: { file: File; welcome: boolean; tags: string; form: HTMLFormElement }) =>
      callApi(newsletterRoutes.import, {
        body: { file: input.file, consent: "true", welcome: input.welcome ? "true" : "false", ...(input.tags.trim() && { tags: input.tags }) },
      }),
    onSuccess: async (result, { form }) => {
      form.reset();
      showToast({ title: "Import Complete", description: importSummary(result) });
      await queryClient.invalidateQueries({ queryKey: queries.subscribers.queryKey });
    },
    onError: (error) => showErrorToast(error.message, "Import Failed"),
  });

  /** What the form holds and what is wrong with it: one check for the submit and for each change. */
  const check = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const file = data.get("file");
    const checked = validateForm(subscriberImportFormSchema, {
      file: file instanceof File && file.size > 0 ? file : undefined,
      consent: data.get("consent") === "on" ? "true" : undefined,
    });
    // Too big is refused by the server too (413); said here before the upload is spent.
    const tooLarge = checked.ok && checked.data.file.size > maxFileBytes;
    return { checked, found: checked.ok ? (tooLarge ? { file: fileTooLargeMessage } : {}) : checked.errors };
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const { checked, found } = check(form);
    setErrors(found);
    if (!checked.ok || Object.keys(found).length > 0) return focusFirstInvalid(formId);
    const data = new FormData(form);
    const tags = data.get("tags");
    importer.mutate({ file: checked.data.file, welcome: data.get("welcome") === "on", tags: typeof tags === "string" ? tags : "", form });
  };

  const result = importer.data;
  return (
    <section aria-labelledby="import-title" className="mt-4 border-3 border-ink bg-paper p-4">
      <h3 id="import-title" className="font-bold uppercase tracking-wide">
        Import Subscribers
      </h3>
      <p className="mt-1 text-sm">
        A CSV file with an <code>email</code> column (and optionally <code>subscribed_at</code>). New addresses become active; addresses already here
        are skipped, and unsubscribed people stay unsubscribed.
      </p>
      <form id={formId} className="mt-3 space-y-3" onSubmit={submit} onChange={recheckOnChange(setErrors, (form) => check(form).found)} noValidate>
        <Field label="CSV file" name="file" idPrefix={formId} error={errors.file}>
          {(props) => <input {...props} type="file" accept=".csv,text/csv" className="admin-file" />}
        </Field>
        <div>
          <label className="flex items-start gap-2 text-sm font-semibold">
            <input
              type="checkbox"
              name="consent"
              className="mt-1"
              aria-invalid={Boolean(errors.consent)}
              aria-describedby={errors.consent ? `${formId}-consent-error` : undefined}
            />
            {importConsentWording}
          </label>
          {errors.consent && (
            <p id={`${formId}-consent-error`} className="mt-1 text-sm font-semibold text-signal-dark">
              {errors.consent}
            </p>
          )}
        </div>
        <label className="flex items-start gap-2 text-sm font-semibold">
          <input type="checkbox" name="welcome" className="mt-1" />
          Send them the welcome sequence (unticked, imported people get no welcome emails)
        </label>
        <label className="block text-sm font-semibold">
          Tags for this batch (optional, comma-separated)
          <input type="text" name="tags" className="admin-input mt-1 sm:max-w-md" placeholder="webinar-2026, vip" />
          <span className="mt-1 block font-normal text-slate">Everyone this import adds is also tagged import:&lt;today&apos;s date&gt;.</span>
        </label>
        <button type="submit" className="btn py-2 text-sm" disabled={importer.isPending}>
          {importer.isPending ? "Importing..." : "Import"}
        </button>
      </form>
      <div role="status" className="mt-3 text-sm">
        {result && <ImportResult result={result} />}
      </div>
    </section>
  );
}
