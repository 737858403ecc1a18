/**
 * Wakes the public islands. Astro's own `client:*` directives inline their loader as `<script>`
 * text, which the site's Content-Security-Policy (`script-src 'self'`) refuses; this module is
 * bundled as an external script instead. Each island is server-rendered inside an `Island.astro`
 * wrapper (`data-island`, `data-props`, `data-when`) and hydrated when visible or when idle, its
 * code loaded on demand.
 */
import type { ComponentType } from "react";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each island checks its own props
type IslandModule = { default: ComponentType<any> };

const islands: Record<string, () => Promise<IslandModule>> = {
  DownloadButton: () => import("./DownloadButton.tsx"),
  DownloadCount: () => import("./DownloadCount.tsx"),
  NewsletterForm: () => import("./NewsletterForm.tsx"),
  ShareButton: () => import("./ShareButton.tsx"),
  Toaster: () => import("./Toaster.tsx"),
};

async function hydrate(element: HTMLElement): Promise<void> {
  const load = islands[element.dataset.island ?? ""];
  if (!load) return;
  const props = JSON.parse(element.dataset.props ?? "{}") as Record<string, unknown>;
  // React loads with the first island that wakes, not with the page: before any island is
  // visible the page runs only this small loader.
  const [{ default: Component }, { createElement }, { hydrateRoot }] = await Promise.all([
    load(),
    import("react"),
    import("react-dom/client"),
  ]);
  hydrateRoot(element, createElement(Component, props));
  // A mark for tests and tools: this island answers to input now.
  element.dataset.hydrated = "";
}

const whenVisible = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      whenVisible.unobserve(entry.target);
      const island = entry.target.closest<HTMLElement>("[data-island]");
      if (island) void hydrate(island);
    }
  },
  { rootMargin: "200px" },
);

const whenIdle = (run: () => void) => ("requestIdleCallback" in window ? requestIdleCallback(run, { timeout: 2000 }) : setTimeout(run, 200));

for (const element of document.querySelectorAll<HTMLElement>("[data-island]")) {
  if (element.dataset.when === "idle") whenIdle(() => void hydrate(element));
  // The wrapper is `display: contents` (no box to intersect), so its first element stands in.
  else whenVisible.observe(element.firstElementChild ?? element);
}
