import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { settingDefinitions, settingValueSchema, type SiteSetting } from "../../../core/settings/settings.schema.ts";
import { siteSettingsRoutes } from "../../../api/routes/site-settings.routes.ts";
import { ApiError, callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";

/**
 * One setting, labelled by its description. Text and url values save on Enter, on leaving the
 * field when it changed, or with Save. Other types (images) only show a file input (SPEC §2).
 */
export default function SettingRow({ setting }: { setting: SiteSetting }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(setting.value);
  const [error, setError] = useState<string | null>(null);
  const id = `setting-${setting.key}`;

  const save = useMutation({
    mutationFn: (value: string) => callApi(siteSettingsRoutes.update, { params: { key: setting.key }, body: { value } }),
    onSuccess: (saved, sent) => {
      // What the server kept (trimmed, or the default for an empty value), unless more was typed.
      setDraft((current) => (current === sent ? saved.value : current));
      // The saved value is current at once: a blur right after Enter must not save it a second time.
      queryClient.setQueryData<SiteSetting[]>(queries.settings.queryKey, (list) => list?.map((item) => (item.key === saved.key ? saved : item)));
      showToast({ title: "Setting Updated", description: `${setting.description} has been saved.` });
      void queryClient.invalidateQueries({ queryKey: queries.settings.queryKey });
      void queryClient.invalidateQueries({ queryKey: queries.siteBuild.queryKey });
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.status === 400) setError(failure.message);
      showErrorToast("Failed to update site setting.");
    },
  });

  const commit = () => {
    if (draft === setting.value || save.isPending) return;
    const checked = settingValueSchema(setting.key).safeParse(draft);
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? "Invalid value");
      return;
    }
    setError(null);
    save.mutate(draft);
  };

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
        <p className="mt-1 break-all text-sm text-slate">Current: {setting.value}</p>
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
    "aria-describedby": `${id}-current${error ? ` ${id}-error` : ""}`,
    onBlur: commit,
    onChange: (event: { target: { value: string } }) => setDraft(event.target.value),
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-bold uppercase tracking-wide">
        {setting.description}
      </label>
      <div className="mt-1 flex gap-2">
        {long ? (
          // Enter still saves (SPEC §2), Shift+Enter starts a new line; a long text wraps instead of scrolling sideways.
          <textarea
            {...inputProps}
            rows={3}
            onKeyDown={(event) => {
              if (event.key === "Enter" && !event.shiftKey) {
                event.preventDefault();
                commit();
              }
            }}
          />
        ) : (
          <input
            {...inputProps}
            type="text"
            inputMode={setting.type === "url" ? "url" : "text"}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                commit();
              }
            }}
          />
        )}
        <button
          type="button"
          className="btn btn-light self-start py-2 text-sm"
          onClick={commit}
          disabled={save.isPending || draft === setting.value}
          aria-label={`Save ${setting.description}`}
        >
          Save
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
      <p id={`${id}-current`} className="mt-1 whitespace-pre-line break-words text-sm text-slate">
        Current: {setting.value}
      </p>
    </div>
  );
}
