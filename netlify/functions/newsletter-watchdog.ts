import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** The mail watchdog, every minute (the outbox, then the newsletter): the `newsletter-watchdog` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("newsletter-watchdog");
};

export const config: Config = {
  schedule: "* * * * *",
};
