import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { SubscriberTagUse } from "./subscriber-tags.schema.ts";
import { downloadTag, signupTag } from "./subscriber-tags.ts";

// Subscriber tags (issue 42 point 4) through the API on real databases: set by where a person came
// from (signup page, download, import batch) and by the owner, shown, filtered, exported and erased.
const clock = createFakeClock(new Date("2026-11-27T09:00:00Z"));

describe("tag names from where a person came", () => {
  it("makes signup and download tags that fit the slug rule", () => {
    expect(signupTag("/")).toBe("signup:home");
    expect(signupTag(null)).toBe("signup:home");
    expect(signupTag("/blog/Runway-Math/?utm=x")).toBe("signup:blog.runway-math");
    expect(signupTag("/downloads")).toBe("signup:downloads");
    expect(downloadTag({ id: 4, title: "Pitch deck teardown!" })).toBe("downloaded:pitch-deck-teardown");
    expect(downloadTag({ id: 4, title: "¿¿" })).toBe("downloaded:resource-4");
  });
});

describe.each(featureDatabaseTargets)("subscriber tags on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  let admin: Record<string, string>;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, clock });
    admin = await app.adminHeaders();
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  afterEach(async () => {
    await testDb.db.exec("DELETE FROM subscribers; DELETE FROM subscriber_tags; DELETE FROM downloads; DELETE FROM tags");
  });

  const post = (path: string, body: unknown, headers: Record<string, string> = admin) =>
    app.call(path, { method: "POST", headers: { ...headers, "content-type": "application/json" }, body: JSON.stringify(body) });
  type Listed = { id: number; email: string; tags: SubscriberTagUse[] };
  const list = async (query = "") => {
    const response = await app.call(`/api/newsletter/subscribers${query}`, { headers: admin });
    expect(response.status).toBe(200);
    return (await response.json()) as Listed[];
  };
  const tagsOf = async (email: string) => (await list()).find((person) => person.email === email)?.tags.map((use) => use.tag) ?? [];
  const importCsv = async (csv: string, tags?: string) => {
    const { body, contentType } = await multipartBody({
      file: new File([csv], "list.csv", { type: "text/csv" }),
      consent: "true",
      ...(tags !== undefined && { tags }),
    });
    return app.call("/api/newsletter/subscribers/import", { method: "POST", headers: { ...admin, "content-type": contentType }, body });
  };

  it("tags a signup with its page, a download with its resource, and an import batch with its date and the owner's tags", async () => {
    const signedUpAt = clock.now().toISOString();
    const signup = await post(
      "/api/newsletter/subscribe",
      { email: "ana@example.com" },
      { origin: testOrigin, referer: `${testOrigin}/blog/runway-math/` },
    );
    expect(signup.status).toBe(200);
    clock.advance(60_000);
    const downloadedAt = clock.now().toISOString();
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size) VALUES ('Pitch deck teardown', 'A deck', 'Guides', 'deck.pdf', 'x', 'application/pdf', 10) RETURNING id",
    );
    const download = await post(`/api/downloads/${String(rows[0]?.id)}/request`, { email: "ana@example.com" }, { origin: testOrigin });
    expect(download.status).toBe(200);
    const [ana] = await list();
    expect(ana?.tags).toEqual([
      { tag: "signup:blog.runway-math", source: "signup", detail: "signed up on /blog/runway-math/", setAt: signedUpAt },
      { tag: "downloaded:pitch-deck-teardown", source: "download", detail: "downloaded Pitch deck teardown", setAt: downloadedAt },
    ]);

    expect((await importCsv("email\nben@example.com\n", "bad tag!")).status).toBe(400);
    const imported = await importCsv("email\nben@example.com\ncy@example.com\nana@example.com\n", "Webinar, vip");
    expect(await imported.json()).toMatchObject({ imported: 2, skipped: 1 });
    expect(await tagsOf("ben@example.com")).toEqual(["import:2026-11-27", "vip", "webinar"]);
    // Already here: not part of the batch, not tagged by it.
    expect(await tagsOf("ana@example.com")).not.toContain("vip");
  });

  it("lets the owner add and remove tags by ids or by a filtered list, and filters the list by status, topic, tag and address", async () => {
    await importCsv("email\nann@example.com\nbob@example.com\ncat@example.org\n", "webinar");
    await app.deps.db.query("INSERT INTO tags (slug, name, topic) VALUES ('funding', 'Funding', true)");
    await app.deps.db.query("UPDATE subscribers SET follows_everything = false WHERE email = 'cat@example.org'");
    const ids = new Map((await list()).map((person) => [person.email, person.id]));

    expect((await post("/api/newsletter/subscribers/tags", { ids: [ids.get("ann@example.com")], add: ["VIP"] }, { origin: testOrigin })).status).toBe(
      401,
    );
    const byIds = await post("/api/newsletter/subscribers/tags", { ids: [ids.get("ann@example.com"), 99999], add: ["VIP"] });
    expect(await byIds.json()).toEqual({ changed: 1 });
    expect((await list("?tag=vip")).map((person) => person.email)).toEqual(["ann@example.com"]);
    const annVip = (await list("?tag=vip"))[0]?.tags.find((use) => use.tag === "vip");
    expect(annVip).toMatchObject({ source: "owner", detail: "set by the owner" });

    const byFilter = await post("/api/newsletter/subscribers/tags", { filter: { q: "EXAMPLE.COM" }, add: ["cohort-1"], remove: ["webinar"] });
    expect(await byFilter.json()).toEqual({ changed: 2 });
    expect(await tagsOf("bob@example.com")).toEqual(["cohort-1", "import:2026-11-27"]);
    expect(await tagsOf("cat@example.org")).toEqual(["import:2026-11-27", "webinar"]);

    expect((await list("?topic=funding")).map((person) => person.email).sort()).toEqual(["ann@example.com", "bob@example.com"]);
    expect((await list("?q=%25")).length).toBe(0);
    expect((await list("?status=active&tag=cohort-1&q=bob")).map((person) => person.email)).toEqual(["bob@example.com"]);
    expect((await post("/api/newsletter/subscribers/tags", { add: ["x"] })).status).toBe(400);
    expect((await post("/api/newsletter/subscribers/tags", { ids: [1] })).status).toBe(400);
    expect((await post("/api/newsletter/subscribers/tags", { ids: [1], add: ["no way"] })).status).toBe(200);
    expect((await post("/api/newsletter/subscribers/tags", { ids: [1], add: ["a::b"] })).status).toBe(400);
  });

  it("lists a person's tags in their export and the CSV, and erase takes them away", async () => {
    await importCsv("email\nann@example.com\n", "vip");
    const [ann] = await list();
    const exported = await app.call(`/api/newsletter/subscribers/${String(ann?.id)}/export`, { headers: admin });
    const data = (await exported.json()) as { tags: SubscriberTagUse[] };
    expect(data.tags.map((use) => use.tag)).toEqual(["import:2026-11-27", "vip"]);
    const csv = await (await app.call("/api/newsletter/subscribers/export", { headers: admin })).text();
    expect(csv.split("\r\n")[1]).toMatch(/^ann@example\.com,Active,[^,]+,import,everything,"import:2026-11-27, vip"$/);
    expect((await app.call(`/api/newsletter/subscribers/${String(ann?.id)}`, { method: "DELETE", headers: admin })).status).toBe(204);
    const { rows } = await app.deps.db.query("SELECT 1 FROM subscriber_tag_assignments");
    expect(rows).toHaveLength(0);
  });
});
