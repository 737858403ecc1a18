import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** The weekly backup, looked for daily: the `weekly-backup` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("weekly-backup");
};

export const config: Config = {
  schedule: "@daily",
};
