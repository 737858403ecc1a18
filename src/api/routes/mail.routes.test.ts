import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";

// The owner's view of transactional mail (issue 27, item 4); the pause itself: src/core/mail/provider-pause.test.ts.
const clock = createFakeClock();
/** The sink refuses these for good (550), until a test lets them through. */
const refused = new Set(["bounce@example.com"]);
let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ clock, smtp: { reject: (address) => (refused.has(address) ? 550 : undefined) } });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});

const subscribe = (email: string) =>
  app.call("/api/newsletter/subscribe", {
    method: "POST",
    headers: { origin: testOrigin, "content-type": "application/json" },
    body: JSON.stringify({ email }),
  });

describe("the mail health API", () => {
  it("answers 401 without a session", async () => {
    expect((await app.call("/api/mail/outbox")).status).toBe(401);
    expect((await app.call("/api/mail/outbox/retry", { method: "POST", headers: { origin: testOrigin } })).status).toBe(401);
  });

  it("lists failed mail with the last reply, and Retry sends it again once the address takes mail", async () => {
    expect(await (await app.call("/api/mail/outbox", { headers: admin })).json()).toEqual({ paused: null, pending: 0, failed: 0, messages: [] });
    await subscribe("bounce@example.com");
    const health = await app.call("/api/mail/outbox", { headers: admin });
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({
      paused: null,
      pending: 0,
      failed: 1,
      messages: [
        { kind: "confirmation", to: "bounce@example.com", status: "failed", attempts: 1, lastError: expect.stringMatching(/^550 /) as string },
      ],
    });
    refused.clear();
    const retried = await app.call("/api/mail/outbox/retry", { method: "POST", headers: admin });
    expect(retried.status).toBe(202);
    // The retry's own delivery run (after the answer) sent it.
    expect(app.mail.to("bounce@example.com")).toHaveLength(1);
    expect(await (await app.call("/api/mail/outbox", { headers: admin })).json()).toMatchObject({ pending: 0, failed: 0, messages: [] });
  });
});
