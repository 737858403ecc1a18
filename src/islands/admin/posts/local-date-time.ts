const pad = (value: number) => String(value).padStart(2, "0");

/** An instant as a `datetime-local` input shows it: the owner's own (the browser's) time zone. */
export function toLocalInput(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  return `${String(date.getFullYear())}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A `datetime-local` value (the owner's wall-clock time) as the instant it means; "" stays "". */
export function fromLocalInput(value: string): string {
  if (!value) return "";
  // A date-time without an offset is read as local time (ECMAScript's date-time string format).
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString();
}

/** "Nov 23, 2026, 3:30 PM EST": when a scheduled post goes live, in the owner's time zone. */
export function formatScheduledTime(iso: string): string {
  const format = new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZoneName: "short",
  });
  return format.format(new Date(iso));
}

/** The owner's time zone, to say which one "Publish at" is in. */
export function ownTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}
