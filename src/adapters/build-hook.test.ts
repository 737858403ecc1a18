import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { buildHookRebuilder } from "./build-hook.ts";

// Fake timers: a slow hook and the time that passes are simulated, not waited for.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const tick = (ms: number) => vi.advanceTimersByTimeAsync(ms);

describe("build hook rebuilder", () => {
  it("coalesces a burst into the call in flight plus one more", async () => {
    const calls: string[] = [];
    const fetch = async (url: string | URL | Request) => {
      calls.push(url instanceof Request ? url.url : url.toString());
      await sleep(30);
      return new Response(null, { status: 202 });
    };
    const rebuild = buildHookRebuilder("http://hook.test/build", { fetch });
    for (let i = 0; i < 10; i++) rebuild();
    await tick(120);
    expect(calls).toEqual(["http://hook.test/build", "http://hook.test/build"]);
  });

  it("logs a failing hook instead of throwing", async () => {
    const logs: string[] = [];
    const rebuild = buildHookRebuilder("http://hook.test/build", {
      fetch: () => Promise.reject(new Error("connection refused")),
      log: (message) => logs.push(message),
    });
    expect(() => rebuild()).not.toThrow();
    await tick(10);
    expect(logs).toEqual(["[publish] build hook failed: connection refused"]);
  });

  it("does nothing without a hook URL", () => {
    const fetch = vi.fn<typeof globalThis.fetch>();
    const log = vi.fn<(message: string) => void>();
    const waitUntil = vi.fn<(promise: Promise<unknown>) => void>();
    const rebuild = buildHookRebuilder(undefined, { fetch, log });
    rebuild({ waitUntil });
    rebuild();
    expect(fetch).not.toHaveBeenCalled();
    expect(log).not.toHaveBeenCalled();
    expect(waitUntil).not.toHaveBeenCalled();
  });
});
