/** The ranges the Stats tab offers; `custom` takes two dates. */
export type RangeChoice = "7" | "30" | "90" | "custom";

export interface DayRange {
  from: string;
  to: string;
}

/** A date as `YYYY-MM-DD` in the browser's own calendar. */
export function localDay(date: Date): string {
  const pad = (value: number) => String(value).padStart(2, "0");
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The last `days` days up to `today`, both ends included. */
export function lastDays(days: number, today: Date): DayRange {
  const start = new Date(today);
  start.setDate(start.getDate() - (days - 1));
  return { from: localDay(start), to: localDay(today) };
}

/** Conversion as the dashboard writes it: signups per 100 visitors, one decimal; "—" without visitors. */
export function conversion(signups: number, visitors: number): string {
  if (visitors === 0) return "—";
  return `${(Math.round((signups / visitors) * 1000) / 10).toFixed(1)}%`;
}

/** The post path a link from Recent Posts asks for (`#stats?path=/blog/slug`), if any. */
export function focusedPath(hash: string): string | null {
  if (!hash.startsWith("#stats")) return null;
  return new URLSearchParams(hash.slice(hash.indexOf("?") + 1 || hash.length)).get("path");
}

/** The link Recent Posts gives each post: the Stats tab, showing that post's figures. */
export const postStatsHash = (slug: string) => `#stats?${new URLSearchParams({ path: `/blog/${slug}` }).toString()}`;
