/**
 * The Buy form of a priced resource (BuyForm.astro), the tip form and the "Become a supporter" form: asks the server for a Stripe
 * Checkout and goes there. The amount of a resource is never sent: the server reads its price.
 * Loaded only on pages with such a form.
 */
import { checkoutApi } from "./checkout-paths.ts";

for (const form of document.querySelectorAll<HTMLFormElement>("form[data-checkout]")) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const status = form.querySelector<HTMLElement>("[data-checkout-status]");
    const button = form.querySelector<HTMLButtonElement>("button[type=submit]");
    const field = (name: string) => {
      const value = data.get(name);
      return typeof value === "string" ? value.trim() : "";
    };
    const email = field("email");
    // A tip: one of the owner's amounts, or the custom one (whole units; the server bounds it).
    const chosen = field("amount") === "custom" ? field("custom") : field("amount");
    const amount = Math.round(Number(chosen || "0") * 100);
    const body = {
      kind: form.dataset.checkout,
      ...(form.dataset.resource && { resourceId: Number(form.dataset.resource) }),
      ...(form.dataset.checkout === "tip" && { amount }),
      // The membership: the interval only; the server reads its price from the settings.
      ...(form.dataset.checkout === "membership" && { interval: field("interval") }),
      ...(email && { email }),
      newsletter: data.get("newsletter") === "on",
    };
    if (button) button.disabled = true;
    if (status) status.textContent = "Opening Stripe Checkout…";
    void fetch(checkoutApi.checkout, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
      .then(async (response) => {
        const answer = (await response.json()) as { url?: string; error?: string };
        if (!response.ok || !answer.url) throw new Error(answer.error ?? "Checkout could not start. Please try again.");
        window.location.assign(answer.url);
      })
      .catch((error: unknown) => {
        if (status) status.textContent = error instanceof Error ? error.message : "Checkout could not start. Please try again.";
        if (button) button.disabled = false;
      });
  });
}
