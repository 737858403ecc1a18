/**
 * The search dialog, loaded on the first open (search-trigger.ts). A native modal `<dialog>`: it
 * holds focus while open, Escape closes it, and focus goes back to what opened it. Results come as
 * you type from Pagefind's JS API (`/pagefind/pagefind.js`, written by the site build), which
 * fetches only the index chunks a query needs. Our own small UI rather than Pagefind's default one:
 * see docs/decisions/0034-search-with-pagefind.md for the figures.
 */

/** The part of Pagefind's browser API this dialog uses. */
interface Pagefind {
  options(options: { excerptLength?: number }): Promise<void>;
  mergeIndex(url: string): Promise<void>;
  debouncedSearch(term: string, options?: object, debounceMs?: number): Promise<{ results: { data(): Promise<PagefindResult> }[] } | null>;
}
interface PagefindResult {
  url: string;
  excerpt: string;
  meta: { title?: string; kind?: string; delta?: string };
}
/** `/pagefind/delta.json`: the posts changed since the last full build (netlify/search-index.ts). */
interface SearchDelta {
  shards?: string[];
  index: string | null;
  stale: string[];
}

const pagefindUrl = "/pagefind/pagefind.js";
const shownResults = 8;
let pagefind: Promise<Pagefind> | undefined;
/** Posts whose entry in the full build's index is out of date: only the delta index's entry counts. */
let stale = new Set<string>();
let dialog: HTMLDialogElement | undefined;
let returnFocus: HTMLElement | null = null;

function loadPagefind(): Promise<Pagefind> {
  pagefind ??= (import(/* @vite-ignore */ pagefindUrl) as Promise<Pagefind>).then(async (module) => {
    await module.options({ excerptLength: 24 });
    // Posts published or changed since the last full build are in a small index of their own
    // (docs/decisions/0089-incremental-site-build.md); a site without one answers `index: null`.
    const delta = await fetch("/pagefind/delta.json")
      .then((response) => (response.ok ? (response.json() as Promise<SearchDelta>) : undefined))
      .catch(() => undefined);
    // A large site's posts are in several indexes (shards) of the full build too.
    for (const index of [...(delta?.shards ?? []), ...(delta?.index ? [delta.index] : [])]) await module.mergeIndex(index);
    stale = new Set(delta?.stale ?? []);
    return module;
  });
  return pagefind;
}

/** Opens the dialog; `from` gets focus back when it closes. */
export function openSearch(from: HTMLElement | null): void {
  returnFocus = from;
  dialog ??= createDialog();
  if (dialog.open) return;
  dialog.showModal();
  const input = dialog.querySelector("input");
  input?.select();
  input?.focus();
  void loadPagefind().catch(() => {
    show(status(), "Search is unavailable right now. Try again in a minute, or browse the blog.");
  });
}

const status = () => dialog?.querySelector<HTMLElement>("[data-search-status]") ?? null;
const list = () => dialog?.querySelector<HTMLElement>("[data-search-results]") ?? null;
const show = (element: HTMLElement | null, text: string) => {
  if (element) element.textContent = text;
};

function createDialog(): HTMLDialogElement {
  const element = document.createElement("dialog");
  element.dataset.searchDialog = "";
  element.setAttribute("aria-labelledby", "search-title");
  element.className =
    "m-0 mx-auto mt-4 max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-2xl border-3 border-ink bg-paper p-0 text-ink shadow-hard backdrop:bg-black/70 sm:mt-[10vh] sm:max-h-[80vh]";
  element.innerHTML = `
    <div class="flex max-h-[inherit] flex-col">
      <div class="flex items-center justify-between gap-4 border-b-3 border-ink bg-ink px-4 py-3 text-paper">
        <h2 id="search-title" class="font-display text-lg uppercase tracking-tight">Search No Filter</h2>
        <button type="button" data-search-close class="border-3 border-paper px-2 py-0.5 font-display text-sm uppercase hover:bg-paper hover:text-ink">Close</button>
      </div>
      <form role="search" class="border-b-3 border-ink p-4">
        <label for="search-input" class="sr-only">Search posts and resources</label>
        <input id="search-input" type="search" autocomplete="off" spellcheck="false" placeholder="Search posts and resources"
          class="w-full border-3 border-ink bg-card px-3 py-2 text-lg placeholder:text-gray-600" aria-describedby="search-status" />
      </form>
      <p id="search-status" data-search-status role="status" class="px-4 pt-3 text-sm font-semibold text-gray-700">Type to search posts and resources.</p>
      <ul data-search-results class="flex-1 space-y-3 overflow-y-auto p-4"></ul>
    </div>`;
  const input = element.querySelector("input") as HTMLInputElement;
  element.querySelector("form")?.addEventListener("submit", (event) => {
    event.preventDefault();
    element.querySelector<HTMLAnchorElement>("[data-search-results] a")?.click();
  });
  input.addEventListener("input", () => void search(input.value));
  element.querySelector("[data-search-close]")?.addEventListener("click", () => element.close());
  // A click on the backdrop (outside the box) closes, as Escape does.
  element.addEventListener("click", (event) => {
    if (event.target === element) element.close();
  });
  element.addEventListener("keydown", (event) => {
    // A search field with text would take the first Escape to clear itself: Escape always closes.
    if (event.key === "Escape") {
      event.preventDefault();
      element.close();
      return;
    }
    moveBetweenResults(element, event);
  });
  element.addEventListener("close", () => {
    returnFocus?.focus();
  });
  document.body.append(element);
  return element;
}

let latest = "";
async function search(term: string): Promise<void> {
  latest = term;
  const query = term.trim();
  if (query === "") {
    list()?.replaceChildren();
    show(status(), "Type to search posts and resources.");
    return;
  }
  const api = await loadPagefind().catch(() => undefined);
  if (!api) return;
  const found = await api.debouncedSearch(query, {}, 120);
  // null: a newer keystroke replaced this search.
  if (!found || latest !== term) return;
  const fetched = await Promise.all(found.results.slice(0, shownResults + stale.size).map((result) => result.data()));
  if (latest !== term) return;
  const current = fetched.filter((result) => !stale.has(result.url.replace(/\/$/, "")) || result.meta.delta === "1");
  const results = current.slice(0, shownResults);
  list()?.replaceChildren(...results.map(resultItem));
  const count = found.results.length - (fetched.length - current.length);
  show(
    status(),
    count === 0
      ? `No results for “${query}”.`
      : `${String(count)} ${count === 1 ? "result" : "results"} for “${query}”${count > shownResults ? `, the first ${String(shownResults)} shown` : ""}.`,
  );
}

function resultItem(result: PagefindResult): HTMLLIElement {
  const item = document.createElement("li");
  const link = document.createElement("a");
  link.href = result.url;
  link.className = "block border-3 border-ink bg-card p-3 no-underline hover:shadow-hard focus-visible:shadow-hard";
  const kind = document.createElement("span");
  kind.className = `badge ${result.meta.kind === "Resource" ? "bg-amber" : "bg-paper"} text-xs`;
  kind.textContent = result.meta.kind ?? "Post";
  const title = document.createElement("span");
  title.className = "mt-2 block font-display text-lg leading-tight";
  title.textContent = result.meta.title ?? result.url;
  const excerpt = document.createElement("span");
  excerpt.className = "mt-1 block text-gray-800 [&_mark]:bg-amber [&_mark]:px-0.5 [&_mark]:text-black";
  excerpt.append(...snippet(markedText(result.excerpt), result.meta.title ?? ""));
  link.append(kind, title, excerpt);
  item.append(link);
  return item;
}

/**
 * The excerpt as a snippet: without the title it often starts with (the page's heading, shown just
 * above), and ending in "…" since Pagefind cuts it mid-sentence.
 */
function snippet(nodes: Node[], title: string): Node[] {
  const text = nodes.map((node) => node.textContent ?? "").join("");
  const heading = title.trim().toLowerCase();
  let drop = heading !== "" && text.trimStart().toLowerCase().startsWith(heading) ? text.length - text.trimStart().length + heading.length : 0;
  const kept: Node[] = [];
  for (const node of nodes) {
    const content = node.textContent ?? "";
    if (drop >= content.length) {
      drop -= content.length;
      continue;
    }
    if (drop > 0) node.textContent = content.slice(drop);
    drop = 0;
    kept.push(node);
  }
  const first = kept[0];
  if (first && first.nodeType === Node.TEXT_NODE) first.textContent = (first.textContent ?? "").replace(/^[\s:.,;—–-]+/, "");
  // Pagefind cuts a window of words out of the page: it goes on after the last one.
  if (kept.length > 0 && !/…\s*$/.test(kept.map((node) => node.textContent ?? "").join(""))) kept.push(document.createTextNode("…"));
  return kept;
}

/** Pagefind's excerpt as text with its `<mark>`s kept and nothing else taken as markup. */
function markedText(excerpt: string): Node[] {
  const template = document.createElement("template");
  template.innerHTML = excerpt;
  return [...template.content.childNodes].map((node) => {
    if (node instanceof Element && node.tagName === "MARK") {
      const mark = document.createElement("mark");
      mark.textContent = node.textContent;
      return mark;
    }
    return document.createTextNode(node.textContent ?? "");
  });
}

/** Arrow keys move between the field and the results. */
function moveBetweenResults(element: HTMLDialogElement, event: KeyboardEvent): void {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const stops = [element.querySelector("input"), ...element.querySelectorAll<HTMLAnchorElement>("[data-search-results] a")].filter(
    (stop): stop is HTMLInputElement | HTMLAnchorElement => stop !== null,
  );
  const at = stops.indexOf(document.activeElement as HTMLInputElement | HTMLAnchorElement);
  if (at === -1) return;
  const next = stops[Math.min(stops.length - 1, Math.max(0, at + (event.key === "ArrowDown" ? 1 : -1)))];
  event.preventDefault();
  next?.focus();
}
