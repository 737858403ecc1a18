import { commentCountsApi } from "./comment-counts-paths.ts";

/**
 * The comment counts on post cards (issue 44 points 6 and 7). The build writes each card's count;
 * `site-script.ts` imports this on a page with cards, and it asks the API for their
 * counts (one request, cached 5 s by the CDN) and writes them over, so an approval shows on the list
 * pages within seconds and never needs a rebuild (decision 0086). A failed request leaves the
 * built counts.
 */
const cards = document.querySelectorAll<HTMLElement>("[data-card-comments]");
const ids = [...new Set(Array.from(cards, (card) => card.dataset.cardComments))].join(",");
void fetch(`${commentCountsApi}?posts=${ids}`)
  .then((response) => (response.ok ? (response.json() as Promise<{ enabled: boolean; counts: { id: number; comments: number }[] }>) : null))
  .then((answer) => {
    if (!answer) return;
    const counts = new Map(answer.counts.map((count) => [String(count.id), count.comments]));
    for (const card of cards) {
      // Switched off since the build: no counts at all.
      const count = answer.enabled ? (counts.get(card.dataset.cardComments ?? "") ?? 0) : 0;
      card.hidden = count === 0;
      const text = card.lastElementChild;
      if (text) text.textContent = `${String(count)} ${count === 1 ? "comment" : "comments"}`;
    }
  })
  .catch(() => undefined);
