import type { StartJob } from "../core/imports/import-runs.ts";
import { backgroundStarter, type BackgroundStarterOptions } from "./background-run.ts";

type Job = Parameters<StartJob>[0];

/** The imports' and backups' Background Function. */
export const movingBackground = "moving-background";

/** A job as its signed start names it (`import-12`). */
export const movingJobName = (job: Job): string => `${job.kind}-${String(job.id)}`;

/** The job a signed start names, or null when it names none of ours. */
export function parseMovingJob(name: string): Job | null {
  const match = /^(import|backup|restore)-([1-9]\d{0,9})$/.exec(name);
  return match ? { kind: match[1] as Job["kind"], id: Number(match[2]) } : null;
}

/**
 * Starts an import, backup or restore in the Background Function (15 minutes, where a request has
 * seconds) with the shared signed start (background-run.ts). A failed start is logged; the run
 * stays "running" in the dashboard and the owner can start it again.
 */
export function movingJobKicker(options: Omit<BackgroundStarterOptions, "name">): StartJob {
  const start = backgroundStarter({ ...options, name: movingBackground });
  return (job, { waitUntil } = {}) => start(movingJobName(job), job.kind, waitUntil);
}
