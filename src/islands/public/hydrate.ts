/**
 * Wakes the public islands. Astro's own `client:*` directives inline their loader as `<script>`
 * text, which the site's Content-Security-Policy (`script-src 'self'`) refuses; this module is
 * bundled as an external script instead. Each island is a React component server-rendered inside
 * an `Island.astro` wrapper (`data-island`, `data-props`).
 *
 * Nothing wakes by itself, so an untouched page runs this file only: an island wakes on the first
 * pointer, touch, focus or key input that reaches it, or once the visitor scrolls it near. A click
 * (or Enter, which clicks a form's button) that lands before the island is awake is held and
 * replayed once it is, so no input is lost (docs/decisions/0018-public-islands-in-react.md).
 * The Toaster mounts with the first toast raised. This module also keeps the resource cards'
 * download counts current, which needs no React.
 */
import type { ComponentType } from "react";
import { downloadCountLabel } from "../../lib/group-downloads.ts";
import { countEventName, refreshCounts, type CountUpdate } from "./download-count.ts";
import { toastEventName } from "./toast.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each island checks its own props
type Island = { default: ComponentType<any> };

const islands: Record<string, () => Promise<Island>> = {
  DownloadButton: () => import("./DownloadButton.tsx"),
  FollowBox: () => import("./FollowBox.tsx"),
  NewsletterForm: () => import("./NewsletterForm.tsx"),
  ShareButton: () => import("./ShareButton.tsx"),
};

const waking = new WeakMap<HTMLElement, Promise<void>>();

async function hydrate(element: HTMLElement): Promise<void> {
  const load = islands[element.dataset.island ?? ""];
  if (!load) return;
  const props = JSON.parse(element.dataset.props ?? "{}") as Record<string, unknown>;
  const [{ hydrateIsland }, { default: Component }] = await Promise.all([import("./awaken.tsx"), load()]);
  await hydrateIsland(element, Component, props);
  // A mark for tests and tools, and for the click hold below: this island answers to input now.
  element.dataset.hydrated = "";
}

/** Wakes an island once, however many inputs ask. */
function wake(element: HTMLElement): Promise<void> {
  let woken = waking.get(element);
  if (!woken) {
    woken = hydrate(element).catch(() => {
      // Its code could not be fetched: let input through, so a form still posts by itself.
      element.dataset.wakeFailed = "";
    });
    waking.set(element, woken);
  }
  return woken;
}

const islandOf = (target: EventTarget | null) => (target instanceof Element ? target.closest<HTMLElement>("[data-island]") : null);
const asleep = (element: HTMLElement) => !("hydrated" in element.dataset) && !("wakeFailed" in element.dataset);

for (const type of ["pointerover", "pointerdown", "touchstart", "focusin", "keydown"]) {
  document.addEventListener(
    type,
    (event) => {
      const island = islandOf(event.target);
      if (island) void wake(island);
    },
    { capture: true, passive: true },
  );
}

// A click on a sleeping island's control would do nothing (or leave the page, for a form): hold
// it until the island is awake, then click again.
document.addEventListener(
  "click",
  (event) => {
    const island = islandOf(event.target);
    const control = (event.target as Element | null)?.closest<HTMLElement>("button, a[href], input[type=submit]");
    if (!island || !control || !island.contains(control) || !asleep(island)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    void wake(island).then(() => control.click());
  },
  { capture: true },
);

// Scrolling is input too: from the first scroll on, islands wake as they come near.
const near = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      near.unobserve(entry.target);
      const island = islandOf(entry.target);
      if (island) void wake(island);
    }
  },
  { rootMargin: "200px" },
);
addEventListener(
  "scroll",
  () => {
    // The wrapper is `display: contents` (no box to intersect), so its first element stands in.
    for (const island of document.querySelectorAll<HTMLElement>("[data-island]")) near.observe(island.firstElementChild ?? island);
  },
  { once: true, passive: true },
);

// The Toaster mounts with the first toast (it shows the toast that woke it).
addEventListener(toastEventName, () => void import("./mount-toaster.tsx").then(({ mountToaster }) => mountToaster()), { once: true });

const counts = [...document.querySelectorAll<HTMLElement>("[data-download-count]")];
if (counts.length > 0) {
  addEventListener(countEventName, (event) => {
    const update = (event as CustomEvent<CountUpdate>).detail;
    for (const element of counts) {
      if (element.dataset.downloadCount !== String(update.id)) continue;
      const count = "count" in update ? update.count : Number(element.dataset.count ?? 0) + update.added;
      element.dataset.count = String(count);
      element.textContent = downloadCountLabel(count);
    }
  });
  // The built counts are as old as the build; the live ones wait until the page has loaded and
  // the browser is idle, off the path to the first paint.
  const refresh = () => void refreshCounts();
  // Safari has no requestIdleCallback.
  const refreshWhenIdle = () => ("requestIdleCallback" in window ? requestIdleCallback(refresh, { timeout: 2000 }) : setTimeout(refresh, 200));
  if (counts.some((element) => "live" in element.dataset)) {
    if (document.readyState === "complete") refreshWhenIdle();
    else addEventListener("load", refreshWhenIdle, { once: true });
  }
}
