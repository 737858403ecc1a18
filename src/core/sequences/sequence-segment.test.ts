import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { subscribe } from "../subscribers/subscribers.service.ts";
import { confirmSubscription } from "../subscribers/subscription-lifecycle.ts";
import { runDueSequenceSteps, updateSequence } from "./sequences.service.ts";

// A sequence limited to a segment (issue 42 point 5): only people in it get its steps.
const clock = createFakeClock();
let app: TestApp;
let ip = 0;

beforeAll(async () => {
  app = await createTestApp({ now: () => clock.now() });
});
afterAll(async () => {
  await app.close();
});

function tokenIn(mail: CaughtMail, path: string): string {
  const match = new RegExp(`${testOrigin}${path.replace(/[/?]/g, "\\$&")}\\?token=([\\w.-]+)`).exec(mail.html);
  if (!match?.[1]) throw new Error(`no ${path} link in "${mail.subject}"`);
  return match[1];
}

/** Signs up on a page of the site and confirms: the real double opt-in, tagged `signup:<page>`. */
async function confirmFrom(email: string, page: string): Promise<void> {
  ip += 1;
  await subscribe(app.deps, { email, clientIp: `198.19.1.${String(ip)}`, page });
  await app.deliverMail();
  const confirmation = app.mail.to(email).find((mail) => mail.subject.startsWith("Confirm"));
  if (!confirmation) throw new Error(`no confirmation to ${email}`);
  expect(await confirmSubscription(app.deps, tokenIn(confirmation, "/api/newsletter/confirm"))).toBe("confirmed");
  await runDueSequenceSteps(app.deps);
  await app.deliverMail();
}

const subjects = (email: string) => app.mail.to(email).map((mail) => mail.subject);
const steps = [{ subject: "Welcome, home reader", delayMinutes: 0, html: "<p>Hello</p>" }];

describe("a sequence limited to a segment", () => {
  it("sends its steps only to people in the segment, and checks the expression as a send does", async () => {
    await expect(updateSequence(app.deps, "welcome", { enabled: true, segment: "tag", steps })).rejects.toMatchObject({
      status: 400,
      message: "Expected a tag slug after 'tag' at position 4",
    });
    await expect(updateSequence(app.deps, "welcome", { enabled: true, segment: "tag signup:home", steps })).rejects.toMatchObject({
      message: "Unknown subscriber tag 'signup:home': no subscriber has this tag",
    });
    // Someone from the home page makes the tag; the segment can name it from then on.
    await confirmFrom("first@example.com", "/");
    const saved = await updateSequence(app.deps, "welcome", { enabled: true, segment: "tag signup:home", steps });
    expect(saved.segment).toBe("tag signup:home");

    await confirmFrom("home@example.com", "/");
    await confirmFrom("post@example.com", "/blog/runway-math/");
    expect(subjects("home@example.com")).toContain("Welcome, home reader");
    expect(subjects("post@example.com")).not.toContain("Welcome, home reader");
    // Left out for good: later runs send nothing either.
    clock.advance(60_000);
    await runDueSequenceSteps(app.deps);
    await app.deliverMail();
    expect(subjects("post@example.com")).not.toContain("Welcome, home reader");

    // Emptied: everyone it starts for again; absent: unchanged.
    expect((await updateSequence(app.deps, "welcome", { enabled: true, steps: saved.steps })).segment).toBe("tag signup:home");
    expect((await updateSequence(app.deps, "welcome", { enabled: true, segment: "", steps: saved.steps })).segment).toBeNull();
    await confirmFrom("later@example.com", "/blog/runway-math/");
    expect(subjects("later@example.com")).toContain("Welcome, home reader");
  });
});
