import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { setupChecklist } from "../../core/setup/setup-checklist.ts";
import type { SetupChecklist } from "../../core/setup/setup-checklist.schema.ts";

let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp({ env: { ADMIN_PASSWORD_GENERATED: "1" } });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});

const checklist = async () => (await (await app.call("/api/setup-checklist", { headers: admin })).json()) as SetupChecklist;
const pending = async () => (await checklist()).items.filter((item) => !item.done).map((item) => item.key);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);

/** A demo post and resource as `npm start` seeds them (files stored, rows marked), and one post of the owner's. */
async function seedDemo(): Promise<{ demoFiles: string[] }> {
  const demoFiles = ["images/demo-cover.png", "downloads/demo-kit.pdf", "images/demo-thumb.png"];
  for (const key of demoFiles) await app.deps.files.put(key, png, { contentType: "image/png", fileName: key });
  await app.deps.db.query(
    `INSERT INTO posts (title, content, slug, published, published_at, featured_image_key, demo) VALUES
       ('Demo post', '<p>x</p>', 'demo-post', true, now(), 'images/demo-cover.png', true),
       ('My own post', '<p>mine</p>', 'my-own-post', false, NULL, NULL, false)`,
  );
  await app.deps.db.query(
    `INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size, thumbnail_key, download_count, demo)
     VALUES ('Demo kit', 'd', 'Guides', 'kit.pdf', 'downloads/demo-kit.pdf', 'application/pdf', 4, 'images/demo-thumb.png', 1280, true)`,
  );
  return { demoFiles };
}

describe("the setup checklist", () => {
  it("is the owner's: a visitor gets 401 for the list and for removing the demo", async () => {
    expect((await app.call("/api/setup-checklist")).status).toBe(401);
    expect((await app.call("/api/setup/remove-demo-content", { method: "POST", headers: { origin: testOrigin } })).status).toBe(401);
  });

  it("lists every demo or default value with where it is fixed, and ticks each once it is replaced", async () => {
    const { demoFiles } = await seedDemo();
    const first = await checklist();
    expect(first.items.map((item) => item.key)).toEqual(["demo-content", "contact-email", "social-links", "postal-address", "admin-password"]);
    expect(first).toMatchObject({ done: 0, total: 5 });
    expect(first.items[0]?.detail).toBe(
      "1 demo post and 1 demo resource (with made-up download counts) are still on the site. The claims are still the demo's: 500+ Founders Helped, 50+ Brutal Truths Shared, 10k+ Downloads, 10,000+ downloads, 5,000+ founders. Set your own numbers in Site Settings, or they go with the demo content.",
    );
    expect(first.items.find((item) => item.key === "contact-email")).toMatchObject({
      fixAt: "#settings/contact_email",
      detail: "Still hello@example.com.",
    });

    const setSetting = (key: string, value: string) =>
      app.call(`/api/site-settings/${key}`, {
        method: "PUT",
        headers: { ...admin, "content-type": "application/json" },
        body: JSON.stringify({ value }),
      });
    expect((await setSetting("contact_email", "founder@realstartup.io")).status).toBe(200);
    expect((await setSetting("mailing_address", "Real Startup Ltd\n1 Market Street\nLondon")).status).toBe(200);
    for (const key of ["youtube_url", "linkedin_url", "twitter_url", "instagram_url"]) {
      expect((await setSetting(key, `https://social.example.org/${key}`)).status).toBe(200);
    }
    // One link left as the demo's is still named.
    expect((await checklist()).items.find((item) => item.key === "social-links")?.detail).toMatch(/^Still the demo's: TikTok/);
    expect((await setSetting("tiktok_url", "https://social.example.org/tiktok")).status).toBe(200);
    expect(await pending()).toEqual(["demo-content", "admin-password"]);

    const rebuildsBefore = app.rebuilds.count;
    const removed = await app.call("/api/setup/remove-demo-content", { method: "POST", headers: admin });
    expect(removed.status).toBe(200);
    expect(await removed.json()).toEqual({ posts: 1, resources: 1 });
    expect(app.rebuilds.count - rebuildsBefore).toBe(1);
    // The demo's rows and files are gone; the owner's post stays.
    const { rows } = await app.deps.db.query<{ title: string }>("SELECT title FROM posts UNION ALL SELECT title FROM downloads");
    expect(rows).toEqual([{ title: "My own post" }]);
    for (const key of demoFiles) expect(await app.deps.files.get(key)).toBeNull();
    expect(await pending()).toEqual(["admin-password"]);
    // The claims still at SPEC's numbers went with the demo: turned off, not emptied.
    const settings = (await (await app.call("/api/site-settings")).json()) as { key: string; hidden?: boolean }[];
    expect(settings.filter((setting) => setting.key.startsWith("claim_")).every((setting) => setting.hidden)).toBe(true);
    // Removing again removes nothing and asks for no rebuild.
    expect(await (await app.call("/api/setup/remove-demo-content", { method: "POST", headers: admin })).json()).toEqual({ posts: 0, resources: 0 });
    expect(app.rebuilds.count - rebuildsBefore).toBe(1);
  });
});

describe("the setup checklist in production", () => {
  it("also asks for the site's real address and a sending domain of the owner's, and never for a generated password", async () => {
    const facts = { production: true, passwordGenerated: false, siteHost: "nofilter.example", sendingDomain: "mail.nofilter.test" };
    const keysOf = async (setup: typeof facts) =>
      (await setupChecklist({ db: app.deps.db, setup })).items.filter((item) => !item.done).map((item) => item.key);
    expect(await keysOf(facts)).toEqual(expect.arrayContaining(["site-url", "sending-domain"]));
    expect(await keysOf(facts)).not.toContain("admin-password");
    const real = await keysOf({ ...facts, siteHost: "realstartup.io", sendingDomain: "mail.realstartup.io" });
    expect(real).not.toContain("site-url");
    expect(real).not.toContain("sending-domain");
  });
});
