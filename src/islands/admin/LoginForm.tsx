import { useMutation } from "@tanstack/react-query";
import { useState, type SubmitEvent } from "react";
import { loginSchema, type LoginInput } from "../../core/auth/login.schema.ts";
import { recoveryCodeLoginSchema } from "../../core/auth/passkey.schema.ts";
import { authRoutes } from "../../api/routes/auth.routes.ts";
import { passkeysRoutes } from "../../api/routes/passkeys.routes.ts";
import { ApiError, callApi } from "./api-client.ts";
import { ceremonyFailure, signWithPasskey } from "./security/passkey-ceremony.ts";
import { formText, recheckOnChange, validateForm, type FieldErrors } from "./form-errors.ts";
import { Field } from "./ui/Field.tsx";
import { showErrorToast, showToast, toastTexts } from "./toasts.ts";

interface Props {
  /** Why the owner is here again (e.g. the session expired). */
  message: string | null;
  onLoggedIn: () => void;
}

/** SPEC §8's login failures: wrong credentials, throttled (the server says when to retry), offline. */
function loginFailure(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 401) return "Invalid username or password.";
    if (error.status === 429 || error.status === 400) return error.message;
  }
  return "Login failed. Please try again.";
}

/** A passkey or recovery code login's failure: the server's words, or what the browser's prompt did. */
function stepFailure(error: unknown): string {
  if (error instanceof ApiError && [400, 401, 429].includes(error.status)) return error.message;
  return ceremonyFailure(error) ?? "Login failed. Please try again.";
}

export default function LoginForm({ message, onLoggedIn }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({});
  // The password was right, and "Require a passkey" asks for a second step.
  const [secondStep, setSecondStep] = useState(false);
  const loggedIn = () => {
    showToast(toastTexts.loginSuccess);
    onLoggedIn();
  };
  const login = useMutation({
    mutationFn: (body: LoginInput) => callApi(authRoutes.login, { body }),
    onSuccess: (answer) => {
      if (answer.authenticated) loggedIn();
      else if (answer.secondStep) setSecondStep(true);
    },
    onError: (error) => showErrorToast(loginFailure(error), "Login Failed"),
  });
  const passkey = useMutation({
    mutationFn: async () => callApi(passkeysRoutes.login, { body: { response: await signWithPasskey() } }),
    onSuccess: loggedIn,
    onError: (error) => showErrorToast(stepFailure(error), "Login Failed"),
  });
  const recovery = useMutation({
    mutationFn: (code: string) => callApi(passkeysRoutes.recoveryCodeLogin, { body: { code } }),
    onSuccess: loggedIn,
    onError: (error) => {
      // The password step ran out (5 minutes): start again from the password.
      if (error instanceof ApiError && /password again/.test(error.message)) setSecondStep(false);
      showErrorToast(stepFailure(error), "Login Failed");
    },
  });
  const checkRecoveryCode = (form: HTMLFormElement) => validateForm(recoveryCodeLoginSchema, { code: formText(new FormData(form), "code") });
  const checkLogin = (form: HTMLFormElement) => {
    const data = new FormData(form);
    return validateForm(loginSchema, { username: formText(data, "username"), password: formText(data, "password") });
  };
  const submitRecoveryCode = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkRecoveryCode(event.currentTarget);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) recovery.mutate(checked.data.code);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const checked = checkLogin(event.currentTarget);
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) login.mutate(checked.data);
  };

  const busy = login.isPending || passkey.isPending || recovery.isPending;
  if (secondStep) {
    return (
      <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-16">
        <form
          onSubmit={submitRecoveryCode}
          onChange={recheckOnChange(setErrors, (form) => {
            const checked = checkRecoveryCode(form);
            return checked.ok ? {} : checked.errors;
          })}
          noValidate
          className="card p-6 sm:p-8"
          aria-labelledby="second-step-title"
        >
          <p className="font-display text-sm uppercase tracking-wide text-signal-dark">No Filter</p>
          <h1 id="second-step-title" className="section-title mt-1 text-3xl">
            Confirm It's You
          </h1>
          <p className="mt-4">Your password was right. This dashboard also needs your passkey.</p>
          <button type="button" className="btn mt-6 w-full justify-center" autoFocus onClick={() => passkey.mutate()} disabled={busy}>
            {passkey.isPending ? "Waiting for the passkey…" : "Use Your Passkey"}
          </button>
          <div className="mt-6 space-y-4 border-t-3 border-ink pt-4">
            <Field label="Recovery code" name="code" error={errors.code} hint="Lost your device? Each recovery code works once.">
              {(props) => <input {...props} type="text" autoComplete="one-time-code" spellCheck={false} className="admin-input font-mono" />}
            </Field>
            <button type="submit" className="btn btn-light w-full justify-center" disabled={busy}>
              Use Recovery Code
            </button>
          </div>
          <button type="button" className="mt-4 text-sm underline" onClick={() => setSecondStep(false)}>
            Back to the password
          </button>
        </form>
      </main>
    );
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-16">
      <form
        onSubmit={submit}
        onChange={recheckOnChange(setErrors, (form) => {
          const checked = checkLogin(form);
          return checked.ok ? {} : checked.errors;
        })}
        noValidate
        className="card p-6 sm:p-8"
        aria-labelledby="login-title"
      >
        <p className="font-display text-sm uppercase tracking-wide text-signal-dark">No Filter</p>
        <h1 id="login-title" className="section-title mt-1 text-3xl">
          Admin Login
        </h1>
        {message && (
          <p role="alert" className="mt-4 border-3 border-ink bg-amber/30 p-3 text-sm font-semibold">
            {message}
          </p>
        )}
        <div className="mt-6 space-y-4">
          <Field label="Username" name="username" error={errors.username}>
            {/* Sent back here by an expired session: the owner's next step is this field. */}
            {(props) => <input {...props} type="text" autoComplete="username" autoFocus={message !== null} className="admin-input" />}
          </Field>
          <Field label="Password" name="password" error={errors.password}>
            {(props) => <input {...props} type="password" autoComplete="current-password" className="admin-input" />}
          </Field>
        </div>
        <button type="submit" className="btn mt-6 w-full justify-center" disabled={busy}>
          {login.isPending ? "Logging in..." : "Login"}
        </button>
        <button type="button" className="btn btn-light mt-3 w-full justify-center" onClick={() => passkey.mutate()} disabled={busy}>
          {passkey.isPending ? "Waiting for the passkey…" : "Sign in with a passkey"}
        </button>
      </form>
    </main>
  );
}
