/** The units a step's delay is written in; the API keeps minutes. */
export type DelayUnit = "minutes" | "hours" | "days";

export const minutesPer: Record<DelayUnit, number> = { minutes: 1, hours: 60, days: 24 * 60 };

/** A delay in the largest unit that writes it whole: 1440 → 1 day, 90 → 90 minutes. */
export function delayParts(minutes: number): { amount: number; unit: DelayUnit } {
  if (minutes > 0 && minutes % minutesPer.days === 0) return { amount: minutes / minutesPer.days, unit: "days" };
  if (minutes > 0 && minutes % minutesPer.hours === 0) return { amount: minutes / minutesPer.hours, unit: "hours" };
  return { amount: minutes, unit: "minutes" };
}
