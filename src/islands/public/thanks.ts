/**
 * The thank-you page after Stripe Checkout: asks for the payment by the session id Stripe sent the
 * buyer back with, every 2 seconds for 2 minutes, until Stripe's event has arrived; then shows the
 * download link of a paid resource. Reloading the page asks again.
 */
import { checkoutApi } from "./checkout-paths.ts";

const root = document.querySelector<HTMLElement>("[data-thanks]");
const session = new URLSearchParams(window.location.search).get("session");
const text = root?.querySelector<HTMLElement>("[data-thanks-text]");
const link = root?.querySelector<HTMLAnchorElement>("[data-thanks-download]");

async function ask(attempt: number): Promise<void> {
  if (!root || !text || !session) return;
  const response = await fetch(`${checkoutApi.status}?${new URLSearchParams({ session }).toString()}`);
  const answer = response.ok ? ((await response.json()) as { status: string; itemTitle: string | null; downloadUrl: string | null }) : null;
  if (answer?.status === "paid") {
    text.textContent = answer.downloadUrl
      ? `Payment received for ${answer.itemTitle ?? "your resource"}. Your download is ready; the link is in your receipt email too.`
      : "Payment received. Thank you for your support! Your receipt is on its way.";
    if (link && answer.downloadUrl) {
      link.href = answer.downloadUrl;
      link.hidden = false;
    }
    return;
  }
  if (answer && answer.status !== "pending") {
    text.textContent = "This payment was refunded or disputed, so its download is no longer available.";
    return;
  }
  if (attempt >= 60) {
    text.textContent = "Stripe has not confirmed the payment yet. Reload this page in a minute, or wait for the receipt email.";
    return;
  }
  window.setTimeout(() => void ask(attempt + 1), 2000);
}

void ask(0);
