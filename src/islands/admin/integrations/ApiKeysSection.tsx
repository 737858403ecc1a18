import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { apiKeysRoutes } from "../../../api/routes/api-keys.routes.ts";
import { apiKeyFormSchema, apiScopes, type ApiKey, type ApiScope, type CreatedApiKey } from "../../../core/api-keys/api-key.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import { ListState } from "../ui/ListState.tsx";

/** What each scope lets a key do, in the owner's words. */
const scopeLabels: Record<ApiScope, string> = {
  "content:read": "Read posts and resources, drafts included",
  "content:write": "Create, change and delete posts and resources",
  "subscribers:read": "Read subscribers, sends and sequences",
  "subscribers:write": "Import, erase and email subscribers; change sequences",
  "stats:read": "Read the stats",
};

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short" }) : "Never");

/** API keys: the list (name, scopes, created, last used), a new key shown once, and revoke. */
export function ApiKeysSection() {
  const keys = useQuery(queries.apiKeys);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <section aria-labelledby="api-keys-title" className="card p-5">
      <h2 id="api-keys-title" className="section-title text-2xl">
        API keys
      </h2>
      <p className="mt-2 text-sm">
        A key lets another tool (a CRM, a spreadsheet, a script) call the site's API with <code>Authorization: Bearer</code>, within the scopes you
        give it. It never reaches security, backups, settings or other keys.
      </p>
      {created && <NewKey created={created} onDone={() => setCreated(null)} />}
      <CreateKeyForm onCreated={setCreated} />
      <ListState loading={keys.isPending} error={keys.error} empty={keys.data?.length === 0} emptyText="No API keys yet." />
      {keys.data && keys.data.length > 0 && (
        <ul className="mt-4 space-y-3" aria-label="API keys">
          {keys.data.map((key) => (
            <KeyItem key={key.id} apiKey={key} />
          ))}
        </ul>
      )}
    </section>
  );
}

function NewKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.key);
      showToast({ title: "Key Copied", description: "The key is on your clipboard." });
    } catch {
      showErrorToast("The browser did not allow copying. Select the key and copy it with Ctrl+C (⌘C).", "Copy Failed");
    }
  };
  return (
    <div className="mt-4 border-3 border-ink bg-amber/30 p-3" role="region" aria-label="New API key">
      <p className="text-sm font-semibold">Copy “{created.name}” now: it is not shown again.</p>
      <output className="mt-2 block break-all font-mono text-sm" aria-label="The new key">
        {created.key}
      </output>
      <div className="mt-3 flex gap-2">
        <button type="button" className="btn py-2 text-sm" onClick={() => void copy()}>
          Copy Key
        </button>
        <button type="button" className="btn btn-light py-2 text-sm" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | undefined>();
  const create = useMutation({
    mutationFn: ({ body }: { body: { name: string; scopes: ApiScope[] }; form: HTMLFormElement }) => callApi(apiKeysRoutes.create, { body }),
    onSuccess: async (answer, { form }) => {
      form.reset();
      onCreated(answer);
      showToast({ title: "API Key Created", description: "Copy it now: it is shown only once." });
      await queryClient.invalidateQueries({ queryKey: queries.apiKeys.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message, "Key Not Created"),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const checked = apiKeyFormSchema.safeParse({ name: data.get("name"), scopes: data.getAll("scopes") });
    setError(checked.success ? undefined : checked.error.issues[0]?.message);
    if (checked.success) create.mutate({ body: checked.data, form });
  };
  return (
    <form onSubmit={submit} noValidate className="mt-4 space-y-3 border-3 border-ink bg-white p-3" aria-label="New API key">
      <div>
        <label htmlFor="api-key-name" className="block text-sm font-bold uppercase tracking-wide">
          Name
        </label>
        <input id="api-key-name" name="name" className="admin-input mt-1" placeholder="e.g. CRM sync" maxLength={100} />
      </div>
      <fieldset>
        <legend className="text-sm font-bold uppercase tracking-wide">Scopes</legend>
        <div className="mt-1 space-y-1">
          {apiScopes.map((scope) => (
            <label key={scope} className="flex items-start gap-2 text-sm">
              <input type="checkbox" name="scopes" value={scope} className="mt-1" />
              <span>
                <code className="font-bold">{scope}</code> — {scopeLabels[scope]}
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      {error && (
        <p role="alert" className="text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
      <button type="submit" className="btn py-2 text-sm" disabled={create.isPending}>
        Create Key
      </button>
    </form>
  );
}

function KeyItem({ apiKey }: { apiKey: ApiKey }) {
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => callApi(apiKeysRoutes.revoke, { params: { id: String(apiKey.id) } }),
    onSuccess: async () => {
      showToast({ title: "API Key Revoked", description: `“${apiKey.name}” no longer works.` });
      await queryClient.invalidateQueries({ queryKey: queries.apiKeys.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  return (
    <li className="border-3 border-ink bg-white p-3">
      <div className="flex items-start justify-between gap-3">
        <h3 className="min-w-0 break-words font-bold leading-snug">
          {apiKey.name} <span className="font-mono text-sm font-normal text-slate">{apiKey.prefix}…</span>
        </h3>
        <ConfirmButton
          label={`Revoke ${apiKey.name}`}
          title="Revoke this key?"
          description={`Every call with “${apiKey.name}” is refused from now on. A tool that uses it stops working.`}
          confirmLabel="Revoke Key"
          onConfirm={() => revoke.mutate()}
          disabled={revoke.isPending}
        >
          <Icon name="trash" />
        </ConfirmButton>
      </div>
      <p className="mt-1 font-mono text-sm">{apiKey.scopes.join(", ")}</p>
      <p className="mt-1 text-sm text-slate">
        Created {when(apiKey.createdAt)} · Last used {when(apiKey.lastUsedAt)}
      </p>
    </li>
  );
}
