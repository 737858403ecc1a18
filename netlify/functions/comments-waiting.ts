import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** The owner's "comments are waiting" email, checked every 10 minutes (at most one an hour): the `comments-waiting` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("comments-waiting");
};

export const config: Config = {
  schedule: "*/10 * * * *",
};
