import type { Config } from "@netlify/functions";
import { runBackgroundFunction } from "../../src/app/background-jobs.ts";

/** The newsletter's Background Function, started only by the shared signed start (src/app/background-jobs.ts). */
export default async (request: Request): Promise<void> => {
  await runBackgroundFunction("newsletter-send-background", request);
};

export const config: Config = {
  background: true,
};
