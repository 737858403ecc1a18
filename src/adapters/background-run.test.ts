import { describe, expect, it } from "vitest";
import { keyRing } from "../core/shared/signer.ts";
import { backgroundRunKicker, backgroundRunUrl, runRequestHeader, runRequestLifetimeMs, signRunRequest, verifyRunRequest } from "./background-run.ts";

// The Background Function's start: a request signed with SESSION_SECRET (spent once:
// tests/security/background-run-start.test.ts; the runs themselves: newsletter-send.test.ts).
const signer = keyRing(["s".repeat(48)]);
const now = new Date("2026-01-05T09:00:00Z");
const later = (ms: number) => new Date(now.getTime() + ms);

/** The same text with one character of its signature (the last part) changed to another. */
function tampered(signed: string): string {
  const last = signed.at(-1) ?? "";
  return `${signed.slice(0, -1)}${last === "A" ? "B" : "A"}`;
}

describe("the signed start of a background run", () => {
  it("accepts its own signature for a minute, and nothing else", () => {
    const signed = signRunRequest(signer, now);
    expect(verifyRunRequest(signer, signed, now)).toMatchObject({ issuedAt: now });
    expect(verifyRunRequest(signer, signed, later(runRequestLifetimeMs - 1))).not.toBeNull();
    expect(verifyRunRequest(signer, signed, later(runRequestLifetimeMs + 1))).toBeNull();
    expect(verifyRunRequest(keyRing(["t".repeat(48)]), signed, now)).toBeNull();
    const [issued, nonce, signature] = signed.split(".") as [string, string, string];
    expect(verifyRunRequest(signer, `${String(Number(issued) + 1)}.${nonce}.${signature}`, now)).toBeNull();
    expect(verifyRunRequest(signer, tampered(signed), now)).toBeNull();
    expect(verifyRunRequest(signer, null, now)).toBeNull();
    expect(verifyRunRequest(signer, "", now)).toBeNull();
    expect(verifyRunRequest(signer, "garbage", now)).toBeNull();
  });

  it("is a signed POST to the function's default address on SITE_URL; a failure is logged, not thrown", async () => {
    const calls: Request[] = [];
    const logged: string[] = [];
    const url = backgroundRunUrl("https://nofilter.example");
    expect(url).toBe("https://nofilter.example/.netlify/functions/newsletter-send-background");
    let answer = 202;
    const kick = backgroundRunKicker({
      url,
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
    expect(verifyRunRequest(signer, calls[0]?.headers.get(runRequestHeader) ?? null, now)).not.toBeNull();
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
