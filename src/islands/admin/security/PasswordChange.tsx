import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { authRoutes } from "../../../api/routes/auth.routes.ts";
import { passwordChangeSchema, type PasswordState } from "../../../core/auth/login.schema.ts";
import { ApiError, callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast } from "../toasts.ts";
import { Field } from "../ui/Field.tsx";
import { useRecentSignIn } from "./ConfirmIdentity.tsx";

type Errors = Partial<Record<"currentPassword" | "newPassword" | "repeatPassword", string>>;

/** Where the password comes from today, and what wins over one saved here. */
function Source({ password }: { password: PasswordState }) {
  const now =
    password.source === "dashboard"
      ? `You set it here${password.changedAt ? ` on ${new Date(password.changedAt).toLocaleDateString("en-US", { dateStyle: "long" })}` : ""}.`
      : password.source === "generated"
        ? "It is still the one npm start generated."
        : password.environmentHash
          ? "It comes from ADMIN_PASSWORD_HASH in the site's environment."
          : "It comes from ADMIN_PASSWORD in .env.";
  const wins = password.environmentHash
    ? "ADMIN_PASSWORD_HASH is set in the site's environment, and a new value there wins: replace it (npm run admin:hash prints one) and redeploy, and that password signs you in instead of the one saved here. That is the way back in if you forget it."
    : "A password set in the environment later wins: a new ADMIN_PASSWORD_HASH (npm run admin:hash) or ADMIN_PASSWORD in .env replaces the one saved here at the next start. That is the way back in if you forget it.";
  return (
    <>
      <p className="mt-2 text-sm">
        <strong>{now}</strong>
      </p>
      <p id="password-env-note" className="mt-2 text-sm text-slate">
        {wins}
      </p>
    </>
  );
}

/**
 * "Change password": the current password, or nothing when the owner signed in within the last 5
 * minutes (else "Confirm it's you" asks, as for any security change). Every other session ends.
 */
export default function PasswordChange({ password }: { password: PasswordState }) {
  const queryClient = useQueryClient();
  const withRecentSignIn = useRecentSignIn();
  const [errors, setErrors] = useState<Errors>({});
  const change = useMutation({
    mutationFn: ({ body }: { body: { currentPassword?: string; newPassword: string }; form: HTMLFormElement }) =>
      withRecentSignIn(() => callApi(authRoutes.changePassword, { body })),
    onSuccess: async (_state, { form }) => {
      form.reset();
      setErrors({});
      showToast({ title: "Password Changed", description: "Use it from your next sign-in. Any other signed-in browser is signed out." });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: queries.security.queryKey }),
        queryClient.invalidateQueries({ queryKey: queries.setup.queryKey }),
      ]);
    },
    onError: (failure) => {
      if (failure instanceof ApiError && failure.code === "sign_in_failed") setErrors({ currentPassword: failure.message });
      else if (failure instanceof ApiError && failure.status === 400) setErrors({ newPassword: failure.message });
      else showErrorToast(failure.message, "Password Not Changed");
    },
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const text = (name: string) => {
      const value = data.get(name);
      return typeof value === "string" ? value : "";
    };
    const body = { newPassword: text("newPassword"), ...(text("currentPassword") && { currentPassword: text("currentPassword") }) };
    const checked = passwordChangeSchema.safeParse(body);
    const found: Errors = {};
    if (!checked.success) found.newPassword = checked.error.issues[0]?.message;
    else if (text("repeatPassword") !== body.newPassword) found.repeatPassword = "The two new passwords differ.";
    setErrors(found);
    if (Object.keys(found).length === 0) change.mutate({ body, form });
  };
  return (
    <section aria-labelledby="password-title" className="card p-5">
      <h2 id="password-title" className="section-title text-xl">
        Password
      </h2>
      <Source password={password} />
      <form onSubmit={submit} noValidate className="mt-4 space-y-3" aria-labelledby="password-change-title" aria-describedby="password-env-note">
        <h3 id="password-change-title" className="font-bold uppercase tracking-wide">
          Change password
        </h3>
        {/* A password form names its account for password managers (Chrome asks for it in the console). */}
        <input type="text" name="username" autoComplete="username" hidden readOnly />
        <Field
          label="Current password"
          name="currentPassword"
          idPrefix="password"
          error={errors.currentPassword}
          hint="Not needed if you signed in within the last 5 minutes; otherwise you'll be asked to confirm it's you."
        >
          {(props) => <input {...props} type="password" autoComplete="current-password" className="admin-input" />}
        </Field>
        <Field label="New password" name="newPassword" idPrefix="password" error={errors.newPassword} hint="At least 12 characters.">
          {(props) => <input {...props} type="password" autoComplete="new-password" className="admin-input" />}
        </Field>
        <Field label="Repeat the new password" name="repeatPassword" idPrefix="password" error={errors.repeatPassword}>
          {(props) => <input {...props} type="password" autoComplete="new-password" className="admin-input" />}
        </Field>
        <button type="submit" className="btn py-2 text-sm" disabled={change.isPending}>
          {change.isPending ? "Changing…" : "Change Password"}
        </button>
      </form>
    </section>
  );
}
