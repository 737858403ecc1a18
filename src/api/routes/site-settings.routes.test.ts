import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

const put = async (key: string, body: unknown, headers?: Record<string, string>) =>
  app.call(`/api/site-settings/${key}`, {
    method: "PUT",
    headers: { "content-type": "application/json", ...(headers ?? (await app.adminHeaders())) },
    body: JSON.stringify(body),
  });

describe("PUT /api/site-settings/{key}", () => {
  it("stores a trimmed value, shows it in the list and asks for a rebuild", async () => {
    const before = app.rebuilds.count;
    const response = await put("hero_title", { value: "  Built in public  " });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ key: "hero_title", value: "Built in public", type: "text" });
    const list = (await (await app.call("/api/site-settings")).json()) as { key: string; value: string }[];
    expect(list.find((setting) => setting.key === "hero_title")?.value).toBe("Built in public");
    expect(app.rebuilds.count).toBe(before + 1);
  });

  it("asks for no rebuild for a setting no page shows (a mail or comment rule), so no page re-renders for it", async () => {
    const before = app.rebuilds.count;
    expect((await put("comment_hold_words", { value: "crypto" })).status).toBe(200);
    expect((await put("digest_hour", { value: "7" })).status).toBe(200);
    expect(app.rebuilds.count).toBe(before);
    expect((await put("contact_email", { value: "team@example.com" })).status).toBe(200);
    expect(app.rebuilds.count).toBe(before + 1);
  });

  it("brings the default back for an empty value", async () => {
    const response = await put("hero_subtitle", { value: "" });
    expect(((await response.json()) as { value: string }).value).toBe("The founder stories nobody posts on LinkedIn.");
  });

  it("checks url and email settings by type, and the length", async () => {
    expect(await (await put("youtube_url", { value: "javascript:alert(1)" })).json()).toEqual({
      error: "Please enter a full http:// or https:// URL.",
    });
    expect((await put("youtube_url", { value: "https://youtube.com/@us" })).status).toBe(200);
    // A bare host is read as the address bar reads it; a word that is no host is still refused.
    expect(await (await put("linkedin_url", { value: "www.linkedin.com/in/founder" })).json()).toMatchObject({
      value: "https://www.linkedin.com/in/founder",
    });
    expect(await (await put("twitter_url", { value: "x.com/nofilter?ref=site" })).json()).toMatchObject({ value: "https://x.com/nofilter?ref=site" });
    expect((await put("twitter_url", { value: "nofilter" })).status).toBe(400);
    expect((await put("twitter_url", { value: "ftp://x.com/a" })).status).toBe(400);
    expect(await (await put("contact_email", { value: "not-an-email" })).json()).toEqual({
      error: "Please enter a valid email address.",
    });
    expect((await put("about_description", { value: "x".repeat(2001) })).status).toBe(400);
    expect((await put("hero_title", { nothing: true })).status).toBe(400);
  });

  it("checks the weekly digest's day and hour (issue 42 point 2)", async () => {
    expect(await (await put("digest_day", { value: "someday" })).json()).toEqual({ error: "Please enter a day of the week, e.g. monday." });
    expect(await (await put("digest_hour", { value: "24" })).json()).toEqual({ error: "Please enter an hour from 0 to 23 (UTC), e.g. 9." });
    expect(await (await put("digest_hour", { value: "9.5" })).json()).toEqual({ error: "Please enter an hour from 0 to 23 (UTC), e.g. 9." });
    expect(await (await put("digest_day", { value: " Thursday " })).json()).toMatchObject({ key: "digest_day", value: "Thursday" });
    expect(await (await put("digest_hour", { value: "18" })).json()).toMatchObject({ key: "digest_hour", value: "18" });
  });

  it("keeps the line breaks of a postal address, up to the usual length", async () => {
    const address = "Founder Media Ltd\n1 Real Road\r\nLondon EC1A 1AA\nUnited Kingdom";
    const response = await put("mailing_address", { value: `  ${address}\n` });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ key: "mailing_address", value: address, type: "text" });
    expect((await put("mailing_address", { value: "x".repeat(2001) })).status).toBe(400);
  });

  it("takes only full or excerpt for what the feeds carry, full by default (issue 43 point 1)", async () => {
    const list = (await (await app.call("/api/site-settings")).json()) as { key: string; value: string }[];
    expect(list.find((setting) => setting.key === "feed_content")?.value).toBe("full");
    expect(await (await put("feed_content", { value: "summary" })).json()).toEqual({ error: "Please choose one of: full, excerpt." });
    expect(await (await put("feed_content", { value: " excerpt " })).json()).toMatchObject({ key: "feed_content", value: "excerpt" });
    expect(await (await put("feed_content", { value: "" })).json()).toMatchObject({ key: "feed_content", value: "full" });
  });

  it("answers 404 for an unknown key, 401 without a session, 403 from another site", async () => {
    expect((await put("favourite_colour", { value: "red" })).status).toBe(404);
    expect((await put("hero_title", { value: "x" }, { origin: testOrigin })).status).toBe(401);
    const admin = await app.adminHeaders();
    expect((await put("hero_title", { value: "x" }, { ...admin, origin: "https://evil.example" })).status).toBe(403);
  });
});

describe("a setting turned off (Don't show)", () => {
  it("is empty and hidden for the site, unlike an empty value (the default); only links and claims can be", async () => {
    const hide = async (key: string) => app.call(`/api/site-settings/${key}/hidden`, { method: "PUT", headers: await app.adminHeaders() });
    expect((await app.call("/api/site-settings/tiktok_url/hidden", { method: "PUT", headers: { origin: testOrigin } })).status).toBe(401);
    expect(await (await hide("tiktok_url")).json()).toMatchObject({ key: "tiktok_url", value: "", hidden: true });
    const list = (await (await app.call("/api/site-settings")).json()) as { key: string; value: string; hidden?: boolean }[];
    expect(list.find((setting) => setting.key === "tiktok_url")).toMatchObject({ value: "", hidden: true });
    // Never touched: SPEC's default link.
    expect(list.find((setting) => setting.key === "instagram_url")?.value).toBe("https://www.instagram.com/nofilter");
    expect(await (await hide("hero_title")).json()).toEqual({ error: "This setting can't be hidden." });
    // Saving a value shows it again; an empty one brings the default back.
    expect(await (await put("tiktok_url", { value: "" })).json()).toMatchObject({ value: "https://www.tiktok.com/@nofilter" });
    expect((await (await put("tiktok_url", { value: "" })).json()) as object).not.toHaveProperty("hidden");
  });
});
