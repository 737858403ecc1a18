/**
 * Opens the site search: a click on the header's search link (`data-search-open`), `/` outside a
 * text field, or Ctrl/⌘+K. This is all the search a page runs before the visitor asks for it: the
 * dialog and Pagefind load on the first open (docs/decisions/0034-search-with-pagefind.md). If they
 * cannot be fetched the link goes where it points without JavaScript: the blog list.
 */
const triggers = [...document.querySelectorAll<HTMLAnchorElement>("a[data-search-open]")];
for (const trigger of triggers) {
  trigger.setAttribute("role", "button");
  trigger.setAttribute("aria-haspopup", "dialog");
}

function open(returnTo: Element | null, fallback: string) {
  import("./search-dialog.ts")
    .then(({ openSearch }) => openSearch(returnTo instanceof HTMLElement ? returnTo : null))
    .catch(() => location.assign(fallback));
}

document.addEventListener("click", (event) => {
  const trigger = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>("a[data-search-open]") : null;
  if (!trigger || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault();
  open(trigger, trigger.href);
});

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

document.addEventListener("keydown", (event) => {
  const shortcut = (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey) && !event.altKey;
  const slash = event.key === "/" && !event.ctrlKey && !event.metaKey && !event.altKey && !typing(event.target);
  if (!shortcut && !slash) return;
  if (document.querySelector("dialog[data-search-dialog][open]")) return;
  event.preventDefault();
  open(document.activeElement, triggers[0]?.href ?? "/blog");
});

// A page restored from the back/forward cache keeps its open dialog: close it, as a fresh page has none.
addEventListener("pageshow", (event) => {
  if (event.persisted) document.querySelector<HTMLDialogElement>("dialog[data-search-dialog][open]")?.close();
});
