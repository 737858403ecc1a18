import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../support/fake-clock.ts";
import type { CaughtMail } from "../support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../support/test-app.ts";
import { createMigratedDatabase } from "../support/test-databases.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";

// Issue 27: rotating SESSION_SECRET must not break the links already sent. The old secret goes
// into SESSION_SECRET_PREVIOUS: an unsubscribe link keeps working for ever, a confirmation link
// until its own 7 days are up. Each app here is the site after a deploy with other variables, over
// the same database.

const oldSecret = "old-secret-".padEnd(48, "o");
const newSecret = "new-secret-".padEnd(48, "n");
const clock = createFakeClock();
let db: SqlExecutor;
const apps: TestApp[] = [];

async function deployed(env: Record<string, string>): Promise<TestApp> {
  const app = await createTestApp({ db, clock, env });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  db = await createMigratedDatabase();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await db.close();
});

const linkIn = (mail: CaughtMail | undefined, path: string) => {
  const link = new RegExp(`${testOrigin}${path.replace(/[/?]/g, "\\$&")}\\?token=[\\w.-]+`).exec(mail?.html ?? "")?.[0];
  if (!link) throw new Error(`no ${path} link`);
  return link.slice(testOrigin.length);
};
const formPost = (app: TestApp, path: string, body = "") =>
  app.call(path, { method: "POST", headers: { origin: testOrigin, "content-type": "application/x-www-form-urlencoded" }, body });
const oneClick = (app: TestApp, path: string) =>
  app.call(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "List-Unsubscribe=One-Click" });
const status = async (email: string) =>
  (await db.query<{ status: string }>("SELECT status FROM subscribers WHERE email = $1", [email])).rows[0]?.status;

describe("a rotated SESSION_SECRET", () => {
  it("keeps old unsubscribe links working with SESSION_SECRET_PREVIOUS, and only with it", async () => {
    const before = await deployed({ SESSION_SECRET: oldSecret });
    const email = "rotated@example.com";
    const subscribed = await before.call("/api/newsletter/subscribe", {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify({ email }),
    });
    expect(subscribed.status).toBe(200);
    expect((await formPost(before, linkIn(before.mail.to(email)[0], "/api/newsletter/confirm"))).status).toBe(200);
    const unsubscribe = linkIn(before.mail.to(email)[1], "/api/newsletter/unsubscribe");
    clock.advance(400 * 24 * 60 * 60 * 1000);

    // Rotated without keeping the old secret: the old link is refused (what the variable prevents).
    const forgetful = await deployed({ SESSION_SECRET: newSecret });
    expect((await oneClick(forgetful, unsubscribe)).status).toBe(403);
    expect(await status(email)).toBe("active");

    // Rotated with it, more than a year after the email was sent: one click still unsubscribes.
    const rotated = await deployed({ SESSION_SECRET: newSecret, SESSION_SECRET_PREVIOUS: oldSecret });
    expect((await rotated.call(unsubscribe)).status).toBe(200);
    expect((await oneClick(rotated, unsubscribe)).status).toBe(200);
    expect(await status(email)).toBe("unsubscribed");
  });

  it("keeps an old confirmation link valid until its own expiry, not longer", async () => {
    const before = await deployed({ SESSION_SECRET: oldSecret });
    const subscribe = (email: string) =>
      before.call("/api/newsletter/subscribe", {
        method: "POST",
        headers: { origin: testOrigin, "content-type": "application/json" },
        body: JSON.stringify({ email }),
      });
    await subscribe("early@example.com");
    await subscribe("late@example.com");
    const early = linkIn(before.mail.to("early@example.com")[0], "/api/newsletter/confirm");
    const late = linkIn(before.mail.to("late@example.com")[0], "/api/newsletter/confirm");
    const rotated = await deployed({ SESSION_SECRET: newSecret, SESSION_SECRET_PREVIOUS: oldSecret });
    clock.advance(6 * 24 * 60 * 60 * 1000);
    expect((await formPost(rotated, early)).status).toBe(200);
    expect(await status("early@example.com")).toBe("active");
    clock.advance(2 * 24 * 60 * 60 * 1000);
    expect((await formPost(rotated, late)).status).toBe(403);
    expect(await status("late@example.com")).toBe("pending");
  });
});
