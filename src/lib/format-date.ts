// UTC, so a post published late in the evening shows the same day on every build machine.
const usLongDate = new Intl.DateTimeFormat("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** "November 22, 2026" (SPEC §9: dates in US long format). */
export function formatLongDate(iso: string): string {
  return usLongDate.format(new Date(iso));
}

/** The date a post card shows: when it was published, else when it was written. */
export function postDate(post: { publishedAt: string | null; createdAt: string }): string {
  return post.publishedAt ?? post.createdAt;
}

/** "6 min read". */
export function readTimeLabel(minutes: number): string {
  return `${minutes} min read`;
}
