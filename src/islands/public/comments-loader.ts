/**
 * The post page's comments, woken late (issue 44 point 6): this part is in the page's one script and
 * only watches; the thread's code (`comments-thread.ts`) is fetched when the reader scrolls the
 * comments within 300 px of the screen, presses "Show comments", or came for a comment (`#comment…`,
 * the reply emails' links). Nothing before the first scroll: on a short post the comments are in
 * view at load, and fetching them then took the page to 5,320 gzip bytes, over its 5 KB budget.
 */
const region = document.querySelector<HTMLElement>("[data-comments]");
if (region) {
  const button = region.querySelector<HTMLButtonElement>("[data-comments-show]");
  let observer: IntersectionObserver | undefined;
  let started = false;
  const start = (focus: boolean) => {
    if (started) return;
    started = true;
    observer?.disconnect();
    void import("./comments-thread.ts").then((thread) => thread.showComments(region, focus));
  };
  if (button) {
    button.hidden = false;
    button.addEventListener("click", () => start(true));
  }
  if (location.hash.startsWith("#comment")) start(false);
  else if ("IntersectionObserver" in window) {
    const watch = () => {
      observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && start(false), { rootMargin: "300px" });
      observer.observe(region);
    };
    addEventListener("scroll", watch, { once: true, passive: true });
  }
}
