import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { apiPaths } from "../../api/api-paths.ts";
import { publicToastTexts } from "./toast-texts.ts";
import { showToast } from "./toast.ts";

interface Props {
  /** Where the form sits: keeps input ids unique and picks the toast wording. */
  placement: "home" | "post" | "downloads" | "blog";
  buttonLabel: string;
}

/** SPEC §8: the downloads page words its toasts differently from home and post. */
const texts = {
  default: { success: publicToastTexts.subscribed, failure: publicToastTexts.subscribeFailed },
  downloads: { success: publicToastTexts.subscribedForResources, failure: publicToastTexts.subscribeFailedOnDownloads },
};

async function subscribe(email: string): Promise<boolean> {
  try {
    const response = await fetch(apiPaths.subscribe, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email }),
      credentials: "same-origin",
    });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The newsletter sign-up: a real form that posts itself without JavaScript; awake, it sends JSON
 * and answers with a toast instead of leaving the page.
 */
export default function NewsletterForm({ placement, buttonLabel }: Props) {
  const input = useRef<HTMLInputElement>(null);
  // Uncontrolled, so what was typed before the island woke is kept; this mirrors it for the button.
  const [email, setEmail] = useState("");
  const [awake, setAwake] = useState(false);
  const [pending, setPending] = useState(false);
  useEffect(() => {
    setEmail(input.current?.value ?? "");
    setAwake(true);
  }, []);
  const inputId = `newsletter-email-${placement}`;
  const text = texts[placement === "downloads" ? "downloads" : "default"];
  // SPEC §2: on the downloads page the button waits for an email (asleep it stays enabled, so the
  // form still posts without JavaScript).
  const disabled = pending || (awake && placement === "downloads" && email.trim() === "");

  async function submit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = (input.current?.value ?? "").trim();
    if (address === "" || pending) return;
    setPending(true);
    const ok = await subscribe(address);
    if (ok && input.current) {
      input.current.value = "";
      setEmail("");
    }
    showToast(ok ? text.success : text.failure);
    setPending(false);
  }

  return (
    <form
      action={apiPaths.subscribe}
      method="post"
      data-newsletter={placement}
      onSubmit={(event) => void submit(event)}
      className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <div className="flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-semibold">
          Email address
        </label>
        <input
          ref={input}
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@startup.com"
          onInput={(event) => setEmail(event.currentTarget.value)}
          className="w-full border-3 border-ink bg-card px-4 py-3 text-ink placeholder:text-gray-600"
        />
      </div>
      <button type="submit" disabled={disabled} className="btn justify-center disabled:cursor-not-allowed">
        {buttonLabel}
      </button>
    </form>
  );
}
