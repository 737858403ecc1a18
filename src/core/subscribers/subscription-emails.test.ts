import { afterEach, describe, expect, it, vi } from "vitest";
import { deliver, mailWaitMs } from "./subscription-emails.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("deliver", () => {
  it("waits for a send that finishes in time", async () => {
    let sent = false;
    await deliver({}, "test", async () => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      sent = true;
    });
    expect(sent).toBe(true);
  });

  it("answers after mailWaitMs when the SMTP server is slow, keeps the send alive through waitUntil, and logs its failure", async () => {
    vi.useFakeTimers();
    const kept: Promise<unknown>[] = [];
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const failure = new Error("SMTP timeout");
    let cleanedUp = false;
    const slowSend = () => new Promise<void>((_, reject) => setTimeout(() => reject(failure), mailWaitMs * 3));
    const delivery = deliver({ waitUntil: (promise) => kept.push(promise) }, "slow", slowSend, () => {
      cleanedUp = true;
      return Promise.resolve();
    });
    await vi.advanceTimersByTimeAsync(mailWaitMs);
    await delivery;
    expect(warned.mock.calls).toEqual([["[mail] slow: the SMTP server is slow; answering without waiting for it"]]);
    expect(kept).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(mailWaitMs * 2);
    await kept[0];
    expect(logged.mock.calls).toEqual([["[mail] slow failed:", failure]]);
    expect(cleanedUp).toBe(true);
  });
});
