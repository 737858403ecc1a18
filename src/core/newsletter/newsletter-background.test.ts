import { describe, expect, it } from "vitest";
import {
  backgroundRunKicker,
  backgroundRunUrl,
  runRequestHeader,
  runRequestLifetimeMs,
  signRunRequest,
  verifyRunRequest,
} from "./newsletter-background.ts";

// The Background Function's start: a request signed with SESSION_SECRET (the runs themselves:
// newsletter-send.test.ts, on real databases).
const secret = "s".repeat(48);
const now = new Date("2026-01-05T09:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);

describe("the signed start of a background run", () => {
  it("accepts its own signature for 30 minutes, and nothing else", () => {
    const signed = signRunRequest(secret, now);
    expect(verifyRunRequest(secret, signed, now)).toBe(true);
    expect(verifyRunRequest(secret, signed, later(runRequestLifetimeMs - 1))).toBe(true);
    expect(verifyRunRequest(secret, signed, later(runRequestLifetimeMs + 1))).toBe(false);
    expect(verifyRunRequest("t".repeat(48), signed, now)).toBe(false);
    const [issued, signature] = signed.split(".") as [string, string];
    expect(verifyRunRequest(secret, `${String(Number(issued) + 1)}.${signature}`, now)).toBe(false);
    expect(verifyRunRequest(secret, `${issued}.${signature.slice(0, -1)}A`, now)).toBe(signature.endsWith("A"));
    expect(verifyRunRequest(secret, null, now)).toBe(false);
    expect(verifyRunRequest(secret, "", now)).toBe(false);
    expect(verifyRunRequest(secret, "garbage", now)).toBe(false);
  });

  it("is a signed POST to the function's default address on SITE_URL; a failure is logged, not thrown", async () => {
    const calls: Request[] = [];
    const logged: string[] = [];
    const url = backgroundRunUrl("https://nofilter.example");
    expect(url).toBe("https://nofilter.example/.netlify/functions/newsletter-send-background");
    let answer = 202;
    const kick = backgroundRunKicker({
      url,
      secret,
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
    expect(verifyRunRequest(secret, calls[0]?.headers.get(runRequestHeader) ?? null, now)).toBe(true);
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
});
