import { expect, test } from "@playwright/test";
import pg from "pg";
import { localServerInfo } from "./local-server.ts";

test("a POST to the local build hook rebuilds the site while the old one keeps serving", async ({ request }) => {
  test.setTimeout(90_000);
  const info = await localServerInfo();
  const db = new pg.Client({ connectionString: info.databaseUrl });
  await db.connect();
  const title = `Rebuilt at ${String(Date.now())}`;
  try {
    await db.query("INSERT INTO site_settings (key, value) VALUES ('hero_title', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value", [
      title,
    ]);
  } finally {
    await db.end();
  }

  // A burst of hook calls: all accepted, coalesced into at most one build after the current one.
  const hookCalls = await Promise.all([1, 2, 3].map(() => request.post(info.buildHookUrl)));
  expect(hookCalls.map((call) => call.status())).toEqual([202, 202, 202]);

  const deadline = Date.now() + 60_000;
  let html = "";
  while (Date.now() < deadline) {
    const page = await request.get("/");
    // No downtime: every request during the rebuild gets the old or the new page.
    expect(page.status()).toBe(200);
    html = await page.text();
    if (html.includes(title)) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(html).toContain(title);
});

test("the build hook refuses anything but POST", async ({ request }) => {
  const info = await localServerInfo();
  expect((await request.get(info.buildHookUrl)).status()).toBe(405);
});
