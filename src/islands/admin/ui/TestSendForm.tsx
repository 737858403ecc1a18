import { useMutation, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { queries } from "../query-client.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";

/**
 * "Send test": one email to the address given, starting at the site's contact address (most tests
 * go to the owner) until the owner types another. Used by the newsletter's panel and by each
 * sequence step; `unavailable` says why it cannot send now (the button is off and the reason shown).
 * Not a `<form>`: a step's test sits inside the sequence's form, and a nested form's submit reached
 * the outer one too (the sequence was saved again). Enter in the field sends, as a form's would.
 */
export function TestSendForm({
  title,
  send,
  unavailable,
}: {
  title: string;
  send: (address: string) => Promise<unknown>;
  unavailable?: string | undefined;
}) {
  const id = useId();
  const [typed, setTyped] = useState<string | null>(null);
  const settings = useQuery(queries.settings);
  const email = typed ?? settings.data?.find((setting) => setting.key === "contact_email")?.value ?? "";
  const test = useMutation({
    mutationFn: send,
    onSuccess: (_, address) => showToast(toastTexts.testSent(address)),
    onError: (error) => showErrorToast(error.message, "Test Failed"),
  });
  const submit = () => {
    if (!test.isPending && unavailable === undefined) test.mutate(email.trim());
  };
  return (
    <div role="form" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="font-bold">
        {title}
      </h3>
      <label htmlFor={`${id}-email`} className="mt-2 block text-sm font-bold uppercase tracking-wide">
        Test address
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={`${id}-email`}
          type="email"
          required
          autoComplete="email"
          className="admin-input min-w-0 flex-1"
          value={email}
          // Not typed into before the contact address arrives: it would land in the middle of what
          // the owner typed (seen as "hello@example.comprovider-outage@…" in a browser test).
          readOnly={typed === null && settings.isPending}
          onChange={(event) => setTyped(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            submit();
          }}
          aria-describedby={unavailable ? `${id}-unavailable` : undefined}
        />
        <button type="button" className="btn btn-light py-2 text-sm" onClick={submit} disabled={test.isPending || unavailable !== undefined}>
          {test.isPending ? "Sending…" : "Send test"}
        </button>
      </div>
      {unavailable && (
        <p id={`${id}-unavailable`} className="mt-1 text-sm text-slate">
          {unavailable}
        </p>
      )}
    </div>
  );
}
