import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** The weekly digest, every 15 minutes (it goes out at the owner's day and hour): the `weekly-digest` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("weekly-digest");
};

export const config: Config = {
  schedule: "*/15 * * * *",
};
