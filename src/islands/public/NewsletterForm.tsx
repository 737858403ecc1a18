import { useEffect, useState, type SubmitEvent } from "react";
import { showToast, type ToastMessage } from "./toast.ts";

export type NewsletterPlacement = "home" | "post" | "downloads";

interface Props {
  placement: NewsletterPlacement;
  buttonLabel: string;
}

/** SPEC §8: the downloads page words its toasts differently from home and post. */
const messages: Record<"default" | "downloads", { success: ToastMessage; failure: ToastMessage }> = {
  default: {
    success: { title: "Subscribed!", description: "You've been successfully subscribed to our newsletter." },
    failure: { title: "Subscription Failed", description: "Failed to subscribe. Please try again.", variant: "destructive" },
  },
  downloads: {
    success: { title: "Subscribed!", description: "You'll receive our latest resources and insights." },
    failure: { title: "Subscription Failed", description: "Please try again or contact support.", variant: "destructive" },
  },
};

/**
 * The newsletter sign-up. A real form that posts without JavaScript; hydrated, it sends JSON and
 * answers with a toast.
 */
export default function NewsletterForm({ placement, buttonLabel }: Props) {
  const [email, setEmail] = useState("");
  const [pending, setPending] = useState(false);
  // Until hydrated the button stays enabled, so the form still posts without JavaScript.
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const inputId = `newsletter-email-${placement}`;
  const text = messages[placement === "downloads" ? "downloads" : "default"];
  // SPEC §2: on the downloads page the button waits for an email.
  const disabled = pending || (hydrated && placement === "downloads" && email.trim() === "");

  async function subscribe(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (address === "" || pending) return;
    setPending(true);
    try {
      const response = await fetch("/api/newsletter/subscribe", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: address }),
        credentials: "same-origin",
      });
      if (!response.ok) throw new Error("Subscription failed");
      setEmail("");
      showToast(text.success);
    } catch {
      showToast(text.failure);
    } finally {
      setPending(false);
    }
  }

  return (
    <form
      action="/api/newsletter/subscribe"
      method="post"
      data-newsletter={placement}
      onSubmit={(event) => void subscribe(event)}
      className="mt-5 flex flex-col gap-3 sm:flex-row sm:items-end"
    >
      <div className="flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-semibold">
          Email address
        </label>
        <input
          id={inputId}
          name="email"
          type="email"
          required
          autoComplete="email"
          placeholder="you@startup.com"
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          className="w-full border-3 border-ink bg-white px-4 py-3 text-ink placeholder:text-gray-600"
        />
      </div>
      <button type="submit" disabled={disabled} className="btn justify-center disabled:cursor-not-allowed disabled:opacity-60">
        {buttonLabel}
      </button>
    </form>
  );
}
