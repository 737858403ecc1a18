/**
 * The post page's comments, woken late (issue 44 point 6): this part is in the page's one script and
 * only watches; the thread's code (`comments-thread.ts`) is fetched when the comments come within
 * 300 px of the screen or the reader presses "Show comments", so a post before any scroll runs no
 * more JavaScript than before.
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
  if ("IntersectionObserver" in window) {
    observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && start(false), { rootMargin: "300px" });
    observer.observe(region);
  }
}
