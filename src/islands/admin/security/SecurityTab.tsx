import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { passkeysRoutes } from "../../../api/routes/passkeys.routes.ts";
import { passkeyNameSchema } from "../../../core/auth/passkey.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { ListState } from "../ui/ListState.tsx";
import { RecentSignInProvider, useRecentSignIn } from "./ConfirmIdentity.tsx";
import { ceremonyFailure, createPasskey } from "./passkey-ceremony.ts";
import PasskeyList from "./PasskeyList.tsx";
import PasswordChange from "./PasswordChange.tsx";

/** Security: the owner's passkeys, the password, "Require a passkey", and recovery codes for a lost device. */
export default function SecurityTab() {
  const security = useQuery(queries.security);
  return (
    <RecentSignInProvider>
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
        <section aria-labelledby="passkeys-title" className="card p-5">
          <h2 id="passkeys-title" className="section-title text-2xl">
            Passkeys
          </h2>
          <p className="mt-2 text-sm">
            A passkey signs you in with your device's screen lock, fingerprint or face: nothing to type, nothing to phish.
          </p>
          <ListState loading={security.isPending} error={security.error} empty={false} emptyText="" />
          {security.data && <PasskeyList passkeys={security.data.passkeys} />}
          <AddPasskeyForm />
        </section>
        <div className="space-y-8">
          {security.data && <PasswordChange password={security.data.password} />}
          {security.data && <RequirementSetting required={security.data.passkeyRequired} />}
          {security.data && <RecoveryCodes left={security.data.recoveryCodesLeft} />}
        </div>
      </div>
    </RecentSignInProvider>
  );
}

function AddPasskeyForm() {
  const queryClient = useQueryClient();
  const withRecentSignIn = useRecentSignIn();
  const [error, setError] = useState<string | undefined>();
  const add = useMutation({
    mutationFn: ({ name }: { name: string; form: HTMLFormElement }) =>
      withRecentSignIn(async () => callApi(passkeysRoutes.register, { body: { name, response: await createPasskey() } })),
    onSuccess: async (passkey, { form }) => {
      form.reset();
      showToast({ title: "Passkey Added", description: `“${passkey.name}” can now sign you in.` });
      await queryClient.invalidateQueries({ queryKey: queries.security.queryKey });
    },
    onError: (failure) => showErrorToast(ceremonyFailure(failure) ?? failure.message, "Passkey Not Added"),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const checked = passkeyNameSchema.safeParse(new FormData(form).get("name"));
    setError(checked.success ? undefined : checked.error.issues[0]?.message);
    if (checked.success) add.mutate({ name: checked.data, form });
  };
  return (
    <form
      onSubmit={submit}
      // A message leaves as soon as the name is fixed (it only ever holds the form's own check).
      onChange={(event) => error && setError(passkeyNameSchema.safeParse(new FormData(event.currentTarget).get("name")).error?.issues[0]?.message)}
      noValidate
      className="mt-6 space-y-3 border-t-3 border-ink pt-4"
      aria-labelledby="add-passkey-title"
    >
      <h3 id="add-passkey-title" className="font-bold uppercase tracking-wide">
        Add a passkey
      </h3>
      <Field label="Passkey name" name="name" idPrefix="passkey" error={error} hint="Which device or password manager holds it, e.g. “Laptop”.">
        {(props) => <input {...props} type="text" maxLength={60} className="admin-input" />}
      </Field>
      <button type="submit" className="btn py-2 text-sm" disabled={add.isPending}>
        {add.isPending ? "Waiting for the passkey…" : "Add Passkey"}
      </button>
    </form>
  );
}

function RequirementSetting({ required }: { required: boolean }) {
  const queryClient = useQueryClient();
  // What the owner asked for, shown at once while the server saves it; then what was saved (a
  // refusal turns the box back).
  const [wanted, setWanted] = useState<boolean | null>(null);
  const withRecentSignIn = useRecentSignIn();
  const save = useMutation({
    mutationFn: (value: boolean) => withRecentSignIn(() => callApi(passkeysRoutes.requirement, { body: { required: value } })),
    onSuccess: async ({ required: saved }) => {
      showToast({
        title: "Setting Updated",
        description: saved ? "A password login now needs a passkey as well." : "A password alone signs you in again.",
      });
      await queryClient.invalidateQueries({ queryKey: queries.security.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message),
    onSettled: () => setWanted(null),
  });
  return (
    <section aria-labelledby="requirement-title" className="card p-5">
      <h2 id="requirement-title" className="section-title text-xl">
        Sign-in
      </h2>
      <label className="mt-3 flex items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 size-5 accent-ink"
          checked={wanted ?? required}
          disabled={save.isPending}
          onChange={(event) => {
            setWanted(event.target.checked);
            save.mutate(event.target.checked);
          }}
          aria-describedby="requirement-hint"
        />
        <span className="font-bold">Require a passkey</span>
      </label>
      <p id="requirement-hint" className="mt-2 text-sm text-slate">
        When on, a password login also asks for a passkey (or a recovery code). Needs a passkey and recovery codes first.
      </p>
    </section>
  );
}

function RecoveryCodes({ left }: { left: number }) {
  const queryClient = useQueryClient();
  const [codes, setCodes] = useState<string[] | null>(null);
  const withRecentSignIn = useRecentSignIn();
  const generate = useMutation({
    mutationFn: () => withRecentSignIn(() => callApi(passkeysRoutes.recoveryCodes)),
    onSuccess: async (answer) => {
      // No toast: one would sit on top of the codes the owner has to copy (issue 41 point 6); the
      // region below says it, and takes the focus so a screen reader reads it out.
      setCodes(answer.codes);
      await queryClient.invalidateQueries({ queryKey: queries.security.queryKey });
    },
    onError: (failure) => showErrorToast(failure.message),
  });
  return (
    <section aria-labelledby="recovery-title" className="card p-5">
      <h2 id="recovery-title" className="section-title text-xl">
        Recovery codes
      </h2>
      <p className="mt-2 text-sm">
        For a lost device: each code works once in place of a passkey, after your password.{" "}
        <strong>{left === 1 ? "1 code left." : `${String(left)} codes left.`}</strong>
      </p>
      {codes && <NewRecoveryCodes codes={codes} />}
      <button type="button" className="btn btn-light mt-3 py-2 text-sm" onClick={() => generate.mutate()} disabled={generate.isPending}>
        {left > 0 ? "Replace Recovery Codes" : "Generate Recovery Codes"}
      </button>
    </section>
  );
}

/** The codes just made, shown once, with Copy and Download so they reach a password manager or paper whole. */
function NewRecoveryCodes({ codes }: { codes: string[] }) {
  const [copied, setCopied] = useState<string>("");
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => region.current?.focus(), [codes]);
  const text = `No Filter recovery codes (each works once, after your password)\n\n${codes.join("\n")}\n`;
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => setCopied("Copied."),
      () => setCopied("Copying was refused by the browser: select the codes and copy them, or download them."),
    );
  };
  return (
    <div className="mt-3 border-3 border-ink bg-amber/30 p-3" role="region" aria-label="New recovery codes" tabIndex={-1} ref={region}>
      <p className="text-sm font-semibold">Save these now (a password manager or paper): they are not shown again.</p>
      <ol className="mt-2 grid grid-cols-2 gap-1 font-mono text-sm">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <button type="button" className="btn btn-light py-1 text-sm" onClick={copy}>
          Copy
        </button>
        <a
          className="btn btn-light py-1 text-sm"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
          download="no-filter-recovery-codes.txt"
        >
          Download
        </a>
        <span className="text-sm" aria-live="polite">
          {copied}
        </span>
      </div>
    </div>
  );
}
