/**
 * The newsletter sign-up, woken: it sends JSON and answers with a toast instead of leaving the
 * page (without JavaScript the form posts itself). Plain DOM, no React, so a page whose only
 * islands are this, Share and the toasts loads no framework (docs/decisions/0002). Markup: `NewsletterForm.astro`.
 */
import { apiPaths } from "../../api/api-paths.ts";
import { showToast, type ToastMessage } from "./toast.ts";

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

export function mount(island: HTMLElement): void {
  const form = island.querySelector<HTMLFormElement>("form[data-newsletter]");
  const input = form?.querySelector<HTMLInputElement>("input[name=email]");
  const button = form?.querySelector<HTMLButtonElement>("button[type=submit]");
  if (!form || !input || !button) return;
  const text = messages[form.dataset.newsletter === "downloads" ? "downloads" : "default"];
  let pending = false;
  // SPEC §2: on the downloads page the button waits for an email. (Before this runs it stays
  // enabled, so the form still posts without JavaScript.)
  const update = () => {
    button.disabled = pending || (form.dataset.newsletter === "downloads" && input.value.trim() === "");
  };
  input.addEventListener("input", update);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const email = input.value.trim();
    if (email === "" || pending) return;
    pending = true;
    update();
    void subscribe(email).then((ok) => {
      if (ok) input.value = "";
      showToast(ok ? text.success : text.failure);
      pending = false;
      update();
    });
  });
  update();
}
