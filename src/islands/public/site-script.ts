/**
 * The one script every public page loads (BaseLayout): the islands' waking (hydrate.ts), the header's
 * search trigger and the page-view beacon, in one module. As three module requests they competed
 * with the stylesheet on Lighthouse's throttled phone: each cost about 150 ms of first paint (1.29 s
 * with one, 1.46 s with two, 1.60 s with three on `/`, measured 2026-11-24), and the score fell to 99.
 * The header's theme toggle is here too; only the stored theme itself is set earlier, by BaseLayout's
 * inline script, before the first paint. So is the post page's comments loader, which fetches the
 * thread's code only when the comments come into view (decision 0084), and the post cards' comment
 * counts' loader (the counts themselves come after load, decision 0086).
 */
import "./hydrate.ts";
import "./search-trigger.ts";
import "./beacon.ts";
import "./theme-toggle.ts";
import "./comments-loader.ts";
// Only list pages have cards, and only there is the counts' code fetched (decision 0086): in this
// file it took /account, which has none, over its 5 KB.
if (document.querySelector("[data-card-comments]")) void import("./comment-counts.ts");
