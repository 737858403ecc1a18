import type { Clock } from "./needs.ts";

export const stamp = (date: Date) => date.toISOString();
export type StampClock = Clock;
