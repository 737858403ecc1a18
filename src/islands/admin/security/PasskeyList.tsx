import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { passkeysRoutes } from "../../../api/routes/passkeys.routes.ts";
import { passkeyNameSchema, type Passkey } from "../../../core/auth/passkey.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import { useRecentSignIn } from "./ConfirmIdentity.tsx";

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "Never");

/** One registered passkey: its name (renamable), when it was added and last used, and Remove. */
function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const queryClient = useQueryClient();
  const [renaming, setRenaming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: queries.security.queryKey });
  const rename = useMutation({
    mutationFn: (name: string) => callApi(passkeysRoutes.rename, { params: { id: passkey.id }, body: { name } }),
    onSuccess: async () => {
      setRenaming(false);
      showToast({ title: "Passkey Renamed", description: "The passkey's new name has been saved." });
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  const withRecentSignIn = useRecentSignIn();
  const remove = useMutation({
    mutationFn: () => withRecentSignIn(() => callApi(passkeysRoutes.remove, { params: { id: passkey.id } })),
    onSuccess: async () => {
      showToast({ title: "Passkey Removed", description: `“${passkey.name}” can no longer sign in.` });
      await refresh();
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = passkeyNameSchema.safeParse(new FormData(event.currentTarget).get("name"));
    if (!checked.success) return setError(checked.error.issues[0]?.message ?? "Invalid name");
    setError(null);
    rename.mutate(checked.data);
  };
  const inputId = `passkey-${String(passkey.id)}-name`;
  return (
    <li className="border-3 border-ink bg-white p-3">
      {renaming ? (
        <form
          onSubmit={submit}
          onChange={(event) =>
            error && setError(passkeyNameSchema.safeParse(new FormData(event.currentTarget).get("name")).error?.issues[0]?.message ?? null)
          }
          noValidate
          className="space-y-2"
        >
          <label htmlFor={inputId} className="block text-sm font-bold uppercase tracking-wide">
            New name
          </label>
          <div className="flex gap-2">
            <input
              id={inputId}
              name="name"
              defaultValue={passkey.name}
              autoFocus
              className="admin-input"
              aria-invalid={error !== null}
              aria-describedby={error ? `${inputId}-error` : undefined}
            />
            <button type="submit" className="btn py-2 text-sm" disabled={rename.isPending}>
              Save
            </button>
            <button type="button" className="btn btn-light py-2 text-sm" onClick={() => setRenaming(false)}>
              Cancel
            </button>
          </div>
          {error && (
            <p id={`${inputId}-error`} className="text-sm font-semibold text-signal-dark">
              {error}
            </p>
          )}
        </form>
      ) : (
        <div className="flex items-start justify-between gap-3">
          <h3 className="min-w-0 break-words font-bold leading-snug">{passkey.name}</h3>
          <div className="flex shrink-0 gap-2">
            <button
              type="button"
              className="admin-icon-button"
              aria-label={`Rename ${passkey.name}`}
              title="Rename"
              onClick={() => setRenaming(true)}
            >
              <Icon name="edit" />
            </button>
            <ConfirmButton
              label={`Remove ${passkey.name}`}
              title="Remove this passkey?"
              description={`“${passkey.name}” will no longer sign you in. Remove it from the device too.`}
              confirmLabel="Remove Passkey"
              onConfirm={() => remove.mutate()}
              disabled={remove.isPending}
            >
              <Icon name="trash" />
            </ConfirmButton>
          </div>
        </div>
      )}
      <p className="mt-1 text-sm text-slate">
        Added {when(passkey.createdAt)} · Last used {when(passkey.lastUsedAt)}
      </p>
    </li>
  );
}

export default function PasskeyList({ passkeys }: { passkeys: Passkey[] }) {
  if (passkeys.length === 0) return <p className="mt-4 text-slate">No passkeys yet.</p>;
  return (
    <ul className="mt-4 space-y-3" aria-label="Passkeys">
      {passkeys.map((passkey) => (
        <PasskeyItem key={passkey.id} passkey={passkey} />
      ))}
    </ul>
  );
}
