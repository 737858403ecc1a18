import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { isHideable, settingChoices, settingDefinitions, settingValueSchema, type SiteSetting } from "../../../core/settings/settings.schema.ts";
import { siteSettingsRoutes } from "../../../api/routes/site-settings.routes.ts";
import { ApiError, callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";

/** What the row says under its field (announced politely): never the value again, which the field shows. */
type RowStatus = "saved" | "unchanged" | null;

const statusTexts = {
  saved: "Saved.",
  unchanged: "No changes to save.",
  edited: "Not saved yet: press Enter or Save.",
} as const;

/**
 * One setting, labelled by its description. Text and url values save on Enter, on leaving the
 * field when it changed, or with Save. Other types (images) only show a file input (SPEC §2). The
 * field wraps a long value rather than cutting it off, and a message under it leaves as soon as
 * the value is fixed.
 */
export default function SettingRow({ setting }: { setting: SiteSetting }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(setting.value);
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<RowStatus>(null);
  const id = `setting-${setting.key}`;

  const save = useMutation({
    mutationFn: (change: { value: string; hidden?: boolean }) =>
      change.hidden
        ? callApi(siteSettingsRoutes.hide, { params: { key: setting.key } })
        : callApi(siteSettingsRoutes.update, { params: { key: setting.key }, body: { value: change.value } }),
    onSuccess: (saved, { value: sent }) => {
      // What the server kept (trimmed, or the default for an empty value), unless more was typed.
      setDraft((current) => (saved.hidden || current === sent ? saved.value : current));
      // The saved value is current at once: a blur right after Enter must not save it a second time.
      queryClient.setQueryData<SiteSetting[]>(queries.settings.queryKey, (list) => list?.map((item) => (item.key === saved.key ? saved : item)));
      showToast({
        title: "Setting Updated",
        description: saved.hidden ? `${setting.description} is no longer shown on the site.` : `${setting.description} has been saved.`,
      });
      setStatus("saved");
      void queryClient.invalidateQueries({ queryKey: queries.settings.queryKey });
      void queryClient.invalidateQueries({ queryKey: queries.siteBuild.queryKey });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.message);
      showErrorToast("Failed to update site setting.");
    },
  });

  const commit = (how: "enter" | "leave" | "button") => {
    if (save.isPending) return;
    // A turned-off setting left empty stays off; typing a value and saving it shows it again.
    if (draft === setting.value && !(how === "button" && setting.hidden)) {
      // Enter on a value already saved says so rather than nothing; leaving the field stays quiet.
      if (how === "enter") setStatus("unchanged");
      return;
    }
    const checked = settingValueSchema(setting.key).safeParse(draft);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Invalid value");
      return;
    }
    setError(null);
    // What the check made of it: a bare host gets its https:// here, in the field too.
    setDraft(checked.data);
    save.mutate({ value: checked.data });
  };
  const hideable = isHideable(setting.key);

  if (setting.type === "image") {
    return (
      <div>
        <label htmlFor={id} className="block text-sm font-bold uppercase tracking-wide">
          {setting.description}
        </label>
        <input
          id={id}
          type="file"
          accept="image/*"
          className="admin-file mt-1"
          onChange={(event) => console.info("Image settings are not uploaded yet", event.target.files?.[0]?.name)}
        />
        <p className="mt-1 break-all text-sm text-slate">{setting.value}</p>
      </div>
    );
  }

  const choices = settingChoices(setting.key);
  if (choices) {
    // A choice saves as soon as it is made: there is nothing to type, so nothing to confirm.
    return (
      <div>
        <label htmlFor={id} className="block text-sm font-bold uppercase tracking-wide">
          {setting.description}
        </label>
        <select
          id={id}
          className="admin-input mt-1"
          value={draft}
          disabled={save.isPending}
          aria-describedby={`${id}-status`}
          onChange={(event) => {
            setDraft(event.target.value);
            setStatus(null);
            save.mutate({ value: event.target.value });
          }}
        >
          {choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
        <p id={`${id}-status`} role="status" className="mt-1 min-h-5 text-sm text-slate">
          {status ? statusTexts[status] : ""}
        </p>
      </div>
    );
  }

  // The paragraphs (descriptions, about, mission) and texts on several lines (the postal address)
  // get a text area; a field keeps its kind while edited.
  const defaultValue = settingDefinitions[setting.key].defaultValue;
  const long = defaultValue.length > 80 || defaultValue.includes("\n");
  const inputProps = {
    id,
    value: draft,
    className: "admin-input",
    "aria-invalid": error !== null,
    "aria-describedby": `${id}-status${error ? ` ${id}-error` : ""}`,
    onBlur: () => commit("leave"),
    onChange: (event: { target: { value: string } }) => {
      // A one-line value stays on one line, whatever was pasted into it.
      const value = long ? event.target.value : event.target.value.replace(/[\r\n]+/g, " ");
      setDraft(value);
      setStatus(null);
      if (error) setError(settingValueSchema(setting.key).safeParse(value).error?.issues[0]?.message ?? null);
    },
  };
  const shownStatus =
    draft !== setting.value && !save.isPending
      ? statusTexts.edited
      : setting.hidden
        ? "Not shown on the site. Type a value and save it, or press Show for the built-in one."
        : status
          ? statusTexts[status]
          : "";
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-bold uppercase tracking-wide">
        {setting.description}
      </label>
      <div className="mt-1 flex gap-2">
        {/* A text area for every value, one line tall for a one-line value, growing with what it holds:
            a long address wraps instead of being cut off at the field's edge. Enter saves (SPEC §2);
            Shift+Enter starts a new line where a value may have several (the postal address). */}
        <textarea
          {...inputProps}
          rows={long ? 3 : 1}
          placeholder={setting.hidden ? "Not shown on the site" : undefined}
          className="admin-input admin-input-grow"
          inputMode={setting.type === "url" ? "url" : "text"}
          onKeyDown={(event) => {
            if (event.key === "Enter" && !(long && event.shiftKey)) {
              event.preventDefault();
              commit("enter");
            }
          }}
        />
        <button
          type="button"
          className="btn btn-light self-start py-2 text-sm"
          onClick={() => commit("button")}
          disabled={save.isPending || (draft === setting.value && !setting.hidden)}
          aria-label={setting.hidden && draft === "" ? `Show ${setting.description} again` : `Save ${setting.description}`}
        >
          {setting.hidden && draft === "" ? "Show" : "Save"}
        </button>
        {hideable && !setting.hidden && (
          // Not the same as empty, which brings the built-in value back: the site leaves this out.
          <button
            type="button"
            className="btn btn-light self-start py-2 text-sm whitespace-nowrap"
            onClick={() => {
              setError(null);
              save.mutate({ value: "", hidden: true });
            }}
            disabled={save.isPending}
            aria-label={`Don't show ${setting.description}`}
          >
            Don&apos;t show
          </button>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
      <p id={`${id}-status`} role="status" className="mt-1 min-h-5 text-sm text-slate">
        {shownStatus}
      </p>
    </div>
  );
}
