import { randomBytes } from "node:crypto";
import type { StartJob } from "../core/imports/import-runs.ts";
import type { Signer } from "../core/shared/signer.ts";
import { runRequestLifetimeMs } from "./background-run.ts";

type Job = Parameters<StartJob>[0];

/** The imports' and backups' Background Function (Netlify's default address for a function without a `path`). */
export function movingRunUrl(siteUrl: string): string {
  return new URL("/.netlify/functions/moving-background", siteUrl).href;
}

/** The header a run request carries: `{issued ms}.{nonce}.{kind}.{id}.{signature of all four}`. */
export const movingRunHeader = "x-moving-run";

const message = (issued: string, nonce: string, job: Job) => `moving-run.${issued}.${nonce}.${job.kind}.${String(job.id)}`;

export function signMovingRun(signer: Signer, now: Date, job: Job): string {
  const issued = String(now.getTime());
  const nonce = randomBytes(16).toString("base64url");
  return `${issued}.${nonce}.${job.kind}.${String(job.id)}.${signer.sign("background-run", message(issued, nonce, job))}`;
}

/** A run request's job, when its signature is ours and it was issued less than a minute ago; its nonce is spent once (spendRunRequest). */
export function verifyMovingRun(signer: Signer, value: string | null, now: Date): { nonce: string; issuedAt: Date; job: Job } | null {
  const match = /^(\d{1,15})\.([\w-]{22})\.(import|backup|restore)\.([1-9]\d{0,9})\.([\w-]{43})$/.exec(value ?? "");
  if (!match) return null;
  const [, issued = "", nonce = "", kind = "", id = "", signature = ""] = match;
  const age = now.getTime() - Number(issued);
  if (age < -runRequestLifetimeMs || age > runRequestLifetimeMs) return null;
  const job = { kind: kind as Job["kind"], id: Number(id) };
  return signer.verify("background-run", message(issued, nonce, job), signature) ? { nonce, issuedAt: new Date(Number(issued)), job } : null;
}

/**
 * Starts an import, backup or restore in the Background Function (15 minutes, where a request has
 * seconds) with a signed POST. A failed start is logged; the run stays "running" in the dashboard
 * and the owner can start it again.
 */
export function movingJobKicker(options: { url: string; signer: Signer; now: () => Date; fetch?: typeof globalThis.fetch }): StartJob {
  const { url, signer, now, fetch = globalThis.fetch } = options;
  return (job, { waitUntil } = {}) => {
    const call = (async () => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { [movingRunHeader]: signMovingRun(signer, now(), job) },
          signal: AbortSignal.timeout(10_000),
        });
        if (!response.ok) console.error(`[${job.kind}] starting the background run: ${url} answered ${String(response.status)}`);
        await response.body?.cancel();
      } catch (error) {
        console.error(`[${job.kind}] starting the background run failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    })();
    waitUntil?.(call);
  };
}
