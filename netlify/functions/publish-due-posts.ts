import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** Scheduled publishing, every minute: the `publish-due-posts` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("publish-due-posts");
};

export const config: Config = {
  schedule: "* * * * *",
};
