import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { loginSchema, type LoginInput } from "../../core/auth/login.schema.ts";
import { authRoutes } from "../../api/routes/auth.routes.ts";
import { ApiError, callApi } from "./api-client.ts";
import { formText, validateForm, type FieldErrors } from "./form-errors.ts";
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

export default function LoginForm({ message, onLoggedIn }: Props) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const login = useMutation({
    mutationFn: (body: LoginInput) => callApi(authRoutes.login, { body }),
    onSuccess: () => {
      showToast(toastTexts.loginSuccess);
      onLoggedIn();
    },
    onError: (error) => showErrorToast(loginFailure(error), "Login Failed"),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const checked = validateForm(loginSchema, { username: formText(data, "username"), password: formText(data, "password") });
    setErrors(checked.ok ? {} : checked.errors);
    if (checked.ok) login.mutate(checked.data);
  };

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4 py-16">
      <form onSubmit={submit} noValidate className="card p-6 sm:p-8" aria-labelledby="login-title">
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
        <button type="submit" className="btn mt-6 w-full justify-center" disabled={login.isPending}>
          {login.isPending ? "Logging in..." : "Login"}
        </button>
      </form>
    </main>
  );
}
