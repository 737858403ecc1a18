import type { Config } from "@netlify/functions";
import { runScheduledFunction } from "../../src/app/background-jobs.ts";

/** The sequences, every minute (docs/decisions/0039-sequences.md): the `run-sequences` row of src/app/background-jobs.ts. */
export default async (): Promise<void> => {
  await runScheduledFunction("run-sequences");
};

export const config: Config = {
  schedule: "* * * * *",
};
