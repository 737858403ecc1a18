/**
 * Wakes the public islands. Astro's own `client:*` directives inline their loader as `<script>`
 * text, which the site's Content-Security-Policy (`script-src 'self'`) refuses; this module is
 * bundled as an external script instead. Each island is server-rendered inside an `Island.astro`
 * wrapper (`data-island`, `data-props`, `data-when`) and hydrated when visible or when idle, its
 * code loaded on demand.
 */
import type { ComponentType } from "react";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each island checks its own props
type ReactIsland = { default: ComponentType<any> };
/** An island in plain DOM code: it wakes the server-rendered markup itself. */
type DomIsland = { mount: (island: HTMLElement, props: Record<string, unknown>) => void };

// Plain DOM where the behaviour is small: React's runtime alone is more than a post page's whole
// budget, so pages with only these islands never load it (see
// docs/decisions/0002-public-islands-without-react.md).
const domIslands: Record<string, () => Promise<DomIsland>> = {
  NewsletterForm: () => import("./newsletter-form.ts"),
  ShareButton: () => import("./share-button.ts"),
  Toaster: () => import("./toast-viewport.ts"),
};

const reactIslands: Record<string, () => Promise<ReactIsland>> = {
  DownloadButton: () => import("./DownloadButton.tsx"),
  DownloadCount: () => import("./DownloadCount.tsx"),
};

async function hydrateWithReact(element: HTMLElement, load: () => Promise<ReactIsland>, props: Record<string, unknown>): Promise<void> {
  // React loads with the first React island that wakes, not with the page.
  const [{ default: Component }, { createElement }, { hydrateRoot }] = await Promise.all([
    load(),
    import("react"),
    import("react-dom/client"),
  ]);
  hydrateRoot(element, createElement(Component, props));
}

async function hydrate(element: HTMLElement): Promise<void> {
  const name = element.dataset.island ?? "";
  const props = JSON.parse(element.dataset.props ?? "{}") as Record<string, unknown>;
  const dom = domIslands[name];
  const react = reactIslands[name];
  if (dom) (await dom()).mount(element, props);
  else if (react) await hydrateWithReact(element, react, props);
  else return;
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
