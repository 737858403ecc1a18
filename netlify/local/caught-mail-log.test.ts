import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { caughtMailLog } from "./caught-mail-log.ts";
import type { CaughtMailSummary } from "./mail-catcher.ts";

const mail = (n: number): CaughtMailSummary => ({
  id: `m${String(n)}`,
  to: [`reader${String(n)}@example.com`],
  from: "No Filter <hello@localhost>",
  subject: n === 0 ? "Confirm your subscription" : "Cash flow, week 1",
  date: new Date(0).toISOString(),
});

describe("npm start's lines for caught mail", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("prints each message of a few with its inbox link", () => {
    const lines: string[] = [];
    const log = caughtMailLog({ log: (line) => lines.push(line), inboxUrl: "http://localhost:8888/inbox" });
    log.onMessage(mail(0));
    vi.advanceTimersByTime(60_000);
    log.onMessage(mail(1));
    expect(lines).toEqual([
      'Caught "Confirm your subscription" to reader0@example.com: http://localhost:8888/inbox/m0',
      'Caught "Cash flow, week 1" to reader1@example.com: http://localhost:8888/inbox/m1',
    ]);
  });

  it("counts a newsletter burst in one line a window instead of a line a message, then prints single messages again", () => {
    const lines: string[] = [];
    const log = caughtMailLog({ log: (line) => lines.push(line), inboxUrl: "http://localhost:8888/inbox", perWindow: 2, windowMs: 5000 });
    // 3,000 messages over 12 s: 250 a second.
    for (let n = 1; n <= 3000; n++) {
      log.onMessage(mail(n));
      if (n % 250 === 0) vi.advanceTimersByTime(1000);
    }
    vi.advanceTimersByTime(10_000);
    expect(lines).toEqual([
      'Caught "Cash flow, week 1" to reader1@example.com: http://localhost:8888/inbox/m1',
      'Caught "Cash flow, week 1" to reader2@example.com: http://localhost:8888/inbox/m2',
      'Caught 1,248 more messages in 5 s (the newest: "Cash flow, week 1" to reader1250@example.com): http://localhost:8888/inbox',
      'Caught 1,250 more messages in 5 s (the newest: "Cash flow, week 1" to reader2500@example.com): http://localhost:8888/inbox',
      'Caught 500 more messages in 5 s (the newest: "Cash flow, week 1" to reader3000@example.com): http://localhost:8888/inbox',
    ]);
    // The burst is over: a signup's confirmation shows with its link again.
    log.onMessage(mail(0));
    expect(lines.at(-1)).toBe('Caught "Confirm your subscription" to reader0@example.com: http://localhost:8888/inbox/m0');
    log.stop();
  });
});
