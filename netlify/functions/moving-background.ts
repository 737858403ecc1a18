import type { Config } from "@netlify/functions";
import { runBackgroundFunction } from "../../src/app/background-jobs.ts";

/** Imports, backups and restores, where they have 15 minutes, started only by the shared signed start (src/app/background-jobs.ts). */
export default async (request: Request): Promise<void> => {
  await runBackgroundFunction("moving-background", request);
};

export const config: Config = {
  background: true,
};
