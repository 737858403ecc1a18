/**
 * The header's theme toggle (`data-theme-toggle`, src/components/ThemeToggle.astro): a click switches
 * between the light and the dark theme and remembers the choice in localStorage — no cookie, nothing
 * sent. BaseLayout's inline script reads it back before the next page's first paint; without a stored
 * choice the stylesheet follows the system's setting (docs/decisions/0042-dark-mode.md).
 */
const root = document.documentElement;
const systemDark = matchMedia("(prefers-color-scheme: dark)");
const storageKey = "theme";
type Theme = "light" | "dark";

const stored = (): Theme | undefined => {
  try {
    const value = localStorage.getItem(storageKey);
    return value === "dark" || value === "light" ? value : undefined;
  } catch {
    return undefined;
  }
};
const current = (): Theme => (root.dataset.theme === "dark" || root.dataset.theme === "light" ? root.dataset.theme : systemDark.matches ? "dark" : "light");

/** The toggle is pressed in the dark theme ("Dark theme": on or off). */
function showState() {
  for (const toggle of document.querySelectorAll("[data-theme-toggle]")) toggle.setAttribute("aria-pressed", String(current() === "dark"));
}

function apply(theme: Theme | undefined) {
  if (theme) root.dataset.theme = theme;
  else delete root.dataset.theme;
  showState();
}

document.addEventListener("click", (event) => {
  if (!(event.target instanceof Element && event.target.closest("[data-theme-toggle]"))) return;
  const next: Theme = current() === "dark" ? "light" : "dark";
  try {
    localStorage.setItem(storageKey, next);
  } catch {
    // Storage refused (a private window's policy): the choice holds for this page only.
  }
  apply(next);
});
// The system switched (no stored choice), another tab chose, or the page came back from the back/forward cache.
systemDark.addEventListener("change", showState);
addEventListener("storage", (event) => {
  if (event.key === storageKey) apply(stored());
});
addEventListener("pageshow", (event) => {
  if (event.persisted) apply(stored());
});
showState();
