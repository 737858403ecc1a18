import * as AlertDialog from "@radix-ui/react-alert-dialog";
import { useMutation } from "@tanstack/react-query";
import { createContext, useCallback, useContext, useState, type SubmitEvent, type ReactNode } from "react";
import { authRoutes } from "../../../api/routes/auth.routes.ts";
import { recentSignInRequiredCode } from "../../../core/auth/login.schema.ts";
import { ApiError, callApi } from "../api-client.ts";
import { formText } from "../form-errors.ts";
import { Field } from "../ui/Field.tsx";
import { ceremonyFailure, signWithPasskey } from "./passkey-ceremony.ts";

/** Runs a security change; when the server asks for a recent sign-in, asks "Confirm it's you" and runs it again. */
export type WithRecentSignIn = <T>(change: () => Promise<T>) => Promise<T>;

const RecentSignInContext = createContext<WithRecentSignIn>((change) => change());

/** The security change's runner of the Security tab (see `RecentSignInProvider`). */
export function useRecentSignIn(): WithRecentSignIn {
  return useContext(RecentSignInContext);
}

/**
 * Changes to how the owner signs in need a sign-in from the last 5 minutes (the server's 403
 * `recent_sign_in_required`). Asked in place: a small prompt for the password or a passkey, then
 * the change the owner asked for goes ahead without starting over.
 */
export function RecentSignInProvider({ children }: { children: ReactNode }) {
  const [waiting, setWaiting] = useState<((confirmed: boolean) => void) | null>(null);
  const withRecentSignIn = useCallback<WithRecentSignIn>(async (change) => {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ApiError && error.code === recentSignInRequiredCode)) throw error;
      const confirmed = await new Promise<boolean>((resolve) => setWaiting(() => resolve));
      if (!confirmed) throw new Error("Nothing was changed: please confirm it's you to change your security settings.");
      return change();
    }
  }, []);
  const finish = (confirmed: boolean) => {
    waiting?.(confirmed);
    setWaiting(null);
  };
  return (
    <RecentSignInContext.Provider value={withRecentSignIn}>
      {children}
      {waiting && <ConfirmIdentityDialog onDone={finish} />}
    </RecentSignInContext.Provider>
  );
}

/** Why a confirmation failed, in the owner's words. */
function failure(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  return ceremonyFailure(error) ?? "Could not confirm. Please try again.";
}

const passwordRequired = "Password is required";

function ConfirmIdentityDialog({ onDone }: { onDone: (confirmed: boolean) => void }) {
  const [error, setError] = useState<string | undefined>();
  const confirm = useMutation({
    mutationFn: async (proof: { password: string } | "passkey") =>
      callApi(authRoutes.reauthenticate, { body: proof === "passkey" ? { response: await signWithPasskey() } : proof }),
    onSuccess: () => onDone(true),
    onError: (failed) => setError(failure(failed)),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const password = formText(new FormData(event.currentTarget), "password");
    if (!password) return setError(passwordRequired);
    setError(undefined);
    confirm.mutate({ password });
  };
  return (
    <AlertDialog.Root open onOpenChange={(open) => !open && onDone(false)}>
      <AlertDialog.Portal>
        <AlertDialog.Overlay className="admin-overlay" />
        <AlertDialog.Content className="admin-dialog card">
          <AlertDialog.Title className="section-title text-xl">Confirm It's You</AlertDialog.Title>
          <AlertDialog.Description className="mt-3">
            Changing how you sign in needs a sign-in from the last 5 minutes. Enter your password or use a passkey.
          </AlertDialog.Description>
          <form
            onSubmit={submit}
            // "Required" leaves once something is typed; the server's answer waits for the next try.
            onChange={(event) => error === passwordRequired && formText(new FormData(event.currentTarget), "password") && setError(undefined)}
            noValidate
            className="mt-4 space-y-3"
          >
            {/* A password form names its account for password managers (Chrome asks for it in the console). */}
            <input type="text" name="username" autoComplete="username" hidden readOnly />
            <Field label="Password" name="password" idPrefix="confirm" error={error}>
              {(props) => <input {...props} type="password" autoComplete="current-password" autoFocus className="admin-input" />}
            </Field>
            <div className="flex flex-wrap justify-end gap-3">
              <AlertDialog.Cancel className="btn btn-light py-2 text-sm" disabled={confirm.isPending}>
                Cancel
              </AlertDialog.Cancel>
              <button type="button" className="btn btn-light py-2 text-sm" disabled={confirm.isPending} onClick={() => confirm.mutate("passkey")}>
                Use a passkey
              </button>
              <button type="submit" className="btn py-2 text-sm" disabled={confirm.isPending}>
                {confirm.isPending ? "Confirming…" : "Confirm"}
              </button>
            </div>
          </form>
        </AlertDialog.Content>
      </AlertDialog.Portal>
    </AlertDialog.Root>
  );
}
