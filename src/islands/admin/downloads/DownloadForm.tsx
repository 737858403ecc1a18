import { useMutation, useQuery } from "@tanstack/react-query";
import { queries } from "../query-client.ts";
import { useState } from "react";
import {
  downloadCategories,
  downloadFormSchema,
  thumbnailAltMessage,
  type AdminDownload,
  type DownloadFormInput,
} from "../../../core/downloads/download.schema.ts";
import { altValues, ImageAltFields } from "../editor/ImageAltFields.tsx";
import { missingFileMessage } from "../../../core/messages.ts";
import { downloadsRoutes } from "../../../api/routes/downloads.routes.ts";
import { ApiError, callApi, formDataOf } from "../api-client.ts";
import { formText, validateForm, type FieldErrors } from "../form-errors.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { CategorySelect } from "../ui/CategorySelect.tsx";
import type { ItemFormProps } from "../ui/ListAndForm.tsx";
import { ItemFormCard } from "../ui/ItemFormCard.tsx";
import { ImageNote } from "../ui/ImageNote.tsx";
import { checkChosenResource, checkFormSize, resourceAccept } from "../upload-checks.ts";
import { useChosenImage } from "../use-chosen-image.ts";
import { useObjectUrl } from "../use-object-url.ts";

const tooLargeTogether = "The file and thumbnail together are too large to send (the limit is 4 MB per upload). Choose a smaller file or thumbnail.";

/** The resource form: upload a new resource, or edit one (its file and thumbnail kept unless replaced). */
export default function DownloadForm({ editing, onDone, onCancel }: ItemFormProps<AdminDownload>) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [progress, setProgress] = useState<number | null>(null);
  const chosenThumbnail = useChosenImage();
  // A chosen thumbnail shows before it is sent, as the post form's cover does (issue 41 point 6).
  const thumbnailPreview = useObjectUrl(chosenThumbnail.file);
  // The price fields show only once Stripe is set up (docs/payments.md): without it nothing paid appears.
  const payments = useQuery(queries.paymentsConfig).data;
  // A resource saved with a category outside the four (the API allows it) keeps it as an option.
  const categories: readonly string[] =
    editing && !(downloadCategories as readonly string[]).includes(editing.category) ? [...downloadCategories, editing.category] : downloadCategories;

  const save = useMutation({
    mutationFn: (body: DownloadFormInput) =>
      editing
        ? callApi(downloadsRoutes.update, { params: { id: editing.id }, body, onUploadProgress: setProgress })
        : callApi(downloadsRoutes.create, { body, onUploadProgress: setProgress }),
    onSuccess: () => {
      showToast(editing ? toastTexts.downloadUpdated : toastTexts.downloadCreated);
      onDone();
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status < 500 && error.status !== 401) setErrors({ "": error.message });
      showErrorToast(editing ? "Failed to update downloadable resource." : "Failed to create downloadable resource.");
    },
    onSettled: () => setProgress(null),
  });

  /** The form's values and what is wrong with them: one check for the submit and for each change. */
  const check = (form: HTMLFormElement) => {
    const data = new FormData(form);
    const chosen = (name: string) => {
      const value = data.get(name);
      return value instanceof File && value.size > 0 ? value : undefined;
    };
    const file = chosen("file");
    const thumbnail = chosenThumbnail.file;
    // The thumbnail's alt text: sent (and required) whenever there is a thumbnail, new or kept.
    const hasThumbnail = Boolean(thumbnail ?? editing?.thumbnailUrl);
    const alt = altValues(data, "thumbnailAlt", "thumbnailDecorative");
    const text = {
      title: formText(data, "title"),
      description: formText(data, "description"),
      category: formText(data, "category"),
      ...(hasThumbnail && { thumbnailAlt: alt.alt ?? "", thumbnailDecorative: alt.decorative }),
      ...(data.has("price") && { price: formText(data, "price"), currency: formText(data, "currency") }),
    };
    const checked = validateForm(downloadFormSchema, { ...text, file, thumbnail });
    const found: FieldErrors = { ...(checked.ok ? {} : checked.errors) };
    if (hasThumbnail && alt.missing) found.thumbnailAlt ??= thumbnailAltMessage;
    found.file ??= checkChosenResource(file) ?? (editing || file ? undefined : missingFileMessage);
    found.thumbnail ??= chosenThumbnail.error;
    const problems: FieldErrors = Object.fromEntries(Object.entries(found).filter(([, message]) => message));
    return { text, file, thumbnail, problems };
  };

  /** Sends a form whose check found nothing, unless it is too large for one request. */
  const send = (form: HTMLFormElement) => {
    const { text, file, thumbnail } = check(form);
    const body = { ...text, ...(file && { file }), ...(thumbnail && { thumbnail }) };
    const tooLarge = checkFormSize(formDataOf(body), tooLargeTogether);
    if (tooLarge) {
      setErrors({ "": tooLarge });
      return;
    }
    setProgress(0);
    save.mutate(body);
  };

  const keepNote = editing ? "Leave empty to keep the current one." : undefined;
  return (
    <ItemFormCard
      formId="admin-download-form"
      title={editing ? "Edit Resource" : "Upload New Resource"}
      errors={errors}
      setErrors={setErrors}
      problems={(form) => check(form).problems}
      onInvalid={(problems) => {
        if (problems.file === missingFileMessage) showErrorToast(missingFileMessage);
      }}
      onValid={send}
      submitLabel={editing ? "Update Resource" : "Upload Resource"}
      pendingLabel="Uploading..."
      pending={save.isPending}
      busy={chosenThumbnail.preparing}
      {...(editing && { cancel: { label: "Cancel Edit", onCancel } })}
    >
      <Field label="Title" name="title" idPrefix="download" error={errors.title}>
        {(props) => <input {...props} type="text" defaultValue={editing?.title ?? ""} className="admin-input" />}
      </Field>
      <Field label="Description" name="description" idPrefix="download" error={errors.description}>
        {(props) => <textarea {...props} rows={3} defaultValue={editing?.description ?? ""} className="admin-input" />}
      </Field>
      <Field label="Category" name="category" idPrefix="download" error={errors.category}>
        {(props) => <CategorySelect {...props} categories={categories} defaultValue={editing?.category ?? ""} />}
      </Field>
      {payments?.enabled && (
        <div className="grid gap-4 sm:grid-cols-2">
          <Field
            label="Price (in cents)"
            name="price"
            idPrefix="download"
            error={errors.price}
            hint={`Leave empty or 0 for free (asked for with an email). 1900 is 19.00. Stripe ${payments.mode === "live" ? "live" : "test"} mode.`}
          >
            {(props) => (
              <input
                {...props}
                type="number"
                min={0}
                step={1}
                inputMode="numeric"
                defaultValue={editing?.price ? String(editing.price) : ""}
                className="admin-input"
              />
            )}
          </Field>
          <Field label="Currency" name="currency" idPrefix="download" error={errors.currency} hint="Three letters, e.g. usd or eur.">
            {(props) => <input {...props} type="text" maxLength={3} defaultValue={editing?.currency ?? "usd"} className="admin-input" />}
          </Field>
        </div>
      )}
      <Field
        label="File"
        name="file"
        idPrefix="download"
        error={errors.file}
        hint={
          <>
            PDF, Word, Excel, PowerPoint or ZIP, up to 4 MB.
            {editing && (
              <>
                {" "}
                Current file: <strong className="break-all">{editing.fileName}</strong>. {keepNote}
              </>
            )}
          </>
        }
      >
        {(props) => <input {...props} type="file" accept={resourceAccept} className="admin-file" />}
      </Field>
      <Field
        label="Thumbnail Image (optional)"
        name="thumbnail"
        idPrefix="download"
        error={errors.thumbnail ?? chosenThumbnail.error}
        hint={
          editing
            ? editing.thumbnailUrl
              ? `Current thumbnail shown below. ${keepNote ?? ""}`
              : "No thumbnail yet."
            : "PNG, JPEG, WebP, GIF or AVIF, up to 25 MB: photos are scaled down before they are sent."
        }
      >
        {(props) => (
          <input
            {...props}
            type="file"
            accept="image/*"
            className="admin-file"
            onChange={(event) => {
              chosenThumbnail.choose(event.target.files?.[0]);
              setErrors((current) => ({ ...current, thumbnail: undefined }));
            }}
          />
        )}
      </Field>
      <ImageNote image={chosenThumbnail} />
      {thumbnailPreview ? (
        <img src={thumbnailPreview} alt="Thumbnail preview" className="max-h-32 border-3 border-ink object-cover" />
      ) : (
        editing?.thumbnailUrl && (
          <img src={editing.thumbnailUrl} alt={`Current thumbnail of ${editing.title}`} className="max-h-32 border-3 border-ink object-cover" />
        )
      )}
      {(chosenThumbnail.file ?? editing?.thumbnailUrl) && (
        <ImageAltFields
          label="Thumbnail Alt Text"
          name="thumbnailAlt"
          decorativeName="thumbnailDecorative"
          idPrefix="download"
          stored={editing?.thumbnailAlt}
          error={errors.thumbnailAlt}
        />
      )}
      {progress !== null && (
        <div>
          <progress className="admin-progress" value={progress} max={1} aria-label="Upload progress" />
          <p className="text-sm" aria-live="polite">
            {progress < 1 ? `Uploading… ${String(Math.round(progress * 100))}%` : "Processing…"}
          </p>
        </div>
      )}
    </ItemFormCard>
  );
}
