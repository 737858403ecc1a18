/**
 * The public pages' toast viewport, without React: the Radix Toaster (`Toaster.tsx`, kept for the
 * dashboard) and the React it needs broke, on their own, the public pages' JavaScript budgets
 * (docs/decisions/0002). Same markup, classes and behaviour (SPEC §9): one toast at a time, 5000 ms,
 * paused while hovered or focused, swipe right past 50 px to dismiss, F8 focuses it, failures
 * announced assertively. The viewport markup is server-rendered by `ToastViewport.astro`.
 */
import { latestToast, toastEventName, type ShownToast } from "./toast.ts";

const durationMs = 5000;
const swipeThresholdPx = 50;

function toastElement(toast: ShownToast): HTMLLIElement {
  const item = document.createElement("li");
  const destructive = toast.variant === "destructive";
  item.className = `nf-toast ${destructive ? "nf-toast-destructive" : ""}`;
  item.dataset.state = "open";
  item.tabIndex = 0;
  // A failure interrupts (alert); anything else waits its turn (status).
  item.setAttribute("role", destructive ? "alert" : "status");
  item.setAttribute("aria-atomic", "true");
  const text = document.createElement("div");
  text.className = "min-w-0 flex-1";
  const title = document.createElement("div");
  title.className = "font-display uppercase leading-tight";
  title.textContent = toast.title;
  const description = document.createElement("div");
  description.className = "mt-1 text-sm";
  description.textContent = toast.description;
  text.append(title, description);
  const close = document.createElement("button");
  close.type = "button";
  close.className = "nf-toast-close";
  close.setAttribute("aria-label", "Close");
  close.innerHTML = '<span aria-hidden="true">×</span>';
  item.append(text, close);
  return item;
}

/** Dismisses on a rightward drag past the threshold; snaps back otherwise. */
function enableSwipe(item: HTMLElement, dismiss: () => void): void {
  let startX: number | undefined;
  item.addEventListener("pointerdown", (event) => {
    if ((event.target as Element).closest("button")) return;
    startX = event.clientX;
    item.setPointerCapture(event.pointerId);
  });
  item.addEventListener("pointermove", (event) => {
    if (startX === undefined) return;
    const dx = Math.max(0, event.clientX - startX);
    item.dataset.swipe = "move";
    item.style.setProperty("--radix-toast-swipe-move-x", `${String(dx)}px`);
  });
  item.addEventListener("pointerup", (event) => {
    if (startX === undefined) return;
    const dx = event.clientX - startX;
    startX = undefined;
    if (dx > swipeThresholdPx) {
      item.style.setProperty("--radix-toast-swipe-end-x", `${String(dx)}px`);
      item.dataset.swipe = "end";
      dismiss();
    } else item.dataset.swipe = "cancel";
  });
}

/** Wakes the viewport inside `island` (the `Toaster` island): shows every toast raised from now on. */
export function mount(island: HTMLElement): void {
  const viewport = island.querySelector<HTMLOListElement>(".nf-toast-viewport");
  if (!viewport) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let paused = false;
  const remove = () => {
    clearTimeout(timer);
    const item = viewport.firstElementChild;
    if (!item) return;
    const focusWasInside = item.contains(document.activeElement);
    (item as HTMLElement).dataset.state = "closed";
    // After the swipe-out animation; focus goes back to the page, not to nowhere.
    setTimeout(() => item.remove(), 100);
    if (focusWasInside) viewport.focus();
  };
  const startTimer = () => {
    clearTimeout(timer);
    if (!paused) timer = setTimeout(remove, durationMs);
  };
  const show = (toast: ShownToast) => {
    const item = toastElement(toast);
    item.querySelector("button")?.addEventListener("click", remove);
    enableSwipe(item, remove);
    viewport.replaceChildren(item);
    startTimer();
  };
  // Reading a toast (pointer over it, focus in it) holds it open.
  const pause = () => {
    paused = true;
    clearTimeout(timer);
  };
  const resume = () => {
    paused = false;
    if (viewport.firstElementChild) startTimer();
  };
  viewport.addEventListener("pointerenter", pause);
  viewport.addEventListener("pointerleave", resume);
  viewport.addEventListener("focusin", pause);
  viewport.addEventListener("focusout", (event) => {
    if (!viewport.contains(event.relatedTarget as Node | null)) resume();
  });
  window.addEventListener(toastEventName, (event) => show((event as CustomEvent<ShownToast>).detail));
  window.addEventListener("keydown", (event) => {
    if (event.key === "F8") viewport.focus();
  });
  const pending = latestToast();
  if (pending) show(pending);
}
