import { describe, expect, it } from "vitest";
import { keyRing } from "../core/shared/signer.ts";
import {
  backgroundFunctionUrl,
  backgroundRunKicker,
  runRequestHeader,
  runRequestLifetimeMs,
  signRunRequest,
  verifyRunRequest,
} from "./background-run.ts";
import { movingJobKicker, parseMovingJob } from "./moving-background.ts";

// The Background Functions' one start: a request signed with SESSION_SECRET (spent once:
// tests/security/background-run-start.test.ts; the runs themselves: newsletter-send.test.ts).
const signer = keyRing(["s".repeat(48)]);
const now = new Date("2026-01-05T09:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);
const newsletter = { name: "newsletter-send-background", job: "run" };

/** The same text with one character of its signature (the last part) changed to another. */
function tampered(signed: string): string {
  const last = signed.at(-1) ?? "";
  return `${signed.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

describe("the signed start of a background run", () => {
  it("accepts its own signature for a minute, for the function it names, and nothing else", () => {
    const signed = signRunRequest(signer, now, newsletter);
    const verify = (value: string | null, at = now, name = newsletter.name) => verifyRunRequest(signer, value, at, name);
    expect(verify(signed)).toMatchObject({ issuedAt: now, job: "run" });
    expect(verify(signed, later(runRequestLifetimeMs - 1))).not.toBeNull();
    expect(verify(signed, later(runRequestLifetimeMs + 1))).toBeNull();
    expect(verifyRunRequest(keyRing(["t".repeat(48)]), signed, now, newsletter.name)).toBeNull();
    // A start of one Background Function starts no other.
    expect(verify(signed, now, "moving-background")).toBeNull();
    const [issued, nonce, name, job, signature] = signed.split(".") as [string, string, string, string, string];
    expect(verify(`${String(Number(issued) + 1)}.${nonce}.${name}.${job}.${signature}`)).toBeNull();
    expect(verify(`${issued}.${nonce}.${name}.backup-1.${signature}`)).toBeNull();
    expect(verify(`${issued}.${nonce}.moving-background.${job}.${signature}`, now, "moving-background")).toBeNull();
    expect(verify(tampered(signed))).toBeNull();
    expect(verify(null)).toBeNull();
    expect(verify("")).toBeNull();
    expect(verify("garbage")).toBeNull();
  });

  it("names an import, backup or restore by its kind and id", () => {
    const signed = signRunRequest(signer, now, { name: "moving-background", job: "restore-42" });
    const verified = verifyRunRequest(signer, signed, now, "moving-background");
    expect(parseMovingJob(verified?.job ?? "")).toEqual({ kind: "restore", id: 42 });
    expect(parseMovingJob("run")).toBeNull();
    expect(parseMovingJob("import-0")).toBeNull();
    expect(() => signRunRequest(signer, now, { name: "moving-background", job: "import.12" })).toThrow(/Not a background start/);
  });

  it("is a signed POST to the function's default address on SITE_URL; a failure is logged, not thrown", async () => {
    const calls: Request[] = [];
    const logged: string[] = [];
    const url = backgroundFunctionUrl("https://nofilter.example", "newsletter-send-background");
    expect(url).toBe("https://nofilter.example/.netlify/functions/newsletter-send-background");
    let answer = 202;
    const kick = backgroundRunKicker({
      siteUrl: "https://nofilter.example",
      signer,
      now: () => now,
      fetch: (input, init) => {
        calls.push(new Request(input, init));
        return answer === 0 ? Promise.reject(new Error("connection refused")) : Promise.resolve(new Response(null, { status: answer }));
      },
      log: (message) => logged.push(message),
    });
    const handed: Promise<unknown>[] = [];
    kick({ waitUntil: (promise) => handed.push(promise) });
    await Promise.all(handed);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.method).toBe("POST");
    expect(calls[0]?.url).toBe(url);
    expect(verifyRunRequest(signer, calls[0]?.headers.get(runRequestHeader) ?? null, now, newsletter.name)).not.toBeNull();
    expect(logged).toEqual([]);

    answer = 500;
    kick({ waitUntil: (promise) => handed.push(promise) });
    answer = 0;
    kick({ waitUntil: (promise) => handed.push(promise) });
    await Promise.all(handed);
    expect(logged).toEqual([
      `[newsletter] starting the background run: ${url} answered 500`,
      "[newsletter] starting the background run failed: connection refused",
    ]);
  });

  it("starts an import, backup or restore in its own function, signed with its job", async () => {
    const calls: Request[] = [];
    const start = movingJobKicker({
      siteUrl: "https://nofilter.example",
      signer,
      now: () => now,
      fetch: (input, init) => {
        calls.push(new Request(input, init));
        return Promise.resolve(new Response(null, { status: 202 }));
      },
    });
    const handed: Promise<unknown>[] = [];
    start({ kind: "backup", id: 7 }, { waitUntil: (promise) => handed.push(promise) });
    await Promise.all(handed);
    expect(calls[0]?.url).toBe("https://nofilter.example/.netlify/functions/moving-background");
    const verified = verifyRunRequest(signer, calls[0]?.headers.get(runRequestHeader) ?? null, now, "moving-background");
    expect(parseMovingJob(verified?.job ?? "")).toEqual({ kind: "backup", id: 7 });
  });
});
