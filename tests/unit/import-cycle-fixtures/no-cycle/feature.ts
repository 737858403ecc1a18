import type { Clock } from "./needs.ts";
import { stamp } from "./stamp.ts";

export const today = (clock: Clock) => stamp(clock.now());
