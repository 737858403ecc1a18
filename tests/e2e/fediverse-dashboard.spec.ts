import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { logIn, openSection } from "./admin.ts";
import { toast } from "./islands.ts";
import { localServerInfo } from "./local-server.ts";
import { axeViolations } from "./axe.ts";

// Issue 45 point 2: the dashboard's Fediverse section and the follower figures in Stats. Their
// handlers are fed-core's (the API contract is on this branch, the handlers come with the merge):
// until then the calls answer 404 and these tests wait for them.
async function skipWithoutHandlers(page: Page) {
  const answer = await page.request.get("/api/fediverse/blocks");
  test.skip(answer.status() === 404, "the fediverse API's handlers are not on this branch yet (fed-core)");
}

test("the Fediverse section shows the follower count, blocks and unblocks a server, and axe finds nothing", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page);
  await skipWithoutHandlers(page);
  // A follower as fed-core's inbox stores one (0059_fediverse.sql), so the count has someone in it
  // whatever the other tests did.
  const handle = `reader${String(Date.now())}@social.example`;
  const db = new pg.Client({ connectionString: (await localServerInfo()).databaseUrl });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO fediverse_followers (actor_id, inbox, handle, server, name, created_at)
       VALUES ($1, $2, $3, 'social.example', 'A Reader', now())`,
      [`https://social.example/users/${handle}`, "https://social.example/inbox", handle],
    );
  } finally {
    await db.end();
  }
  const { total } = (await (await page.request.get("/api/fediverse/followers")).json()) as { total: number };
  expect(total).toBeGreaterThan(0);
  await openSection(page, "Fediverse");
  await expect(page.getByTestId("fediverse-follower-count")).toHaveText(`${total.toLocaleString("en-US")} ${total === 1 ? "follower" : "followers"}`);
  const follower = page.getByRole("list", { name: "Followers" }).getByRole("listitem", { name: handle });
  await expect(follower).toContainText("social.example");

  const domain = `blocked-${String(Date.now())}.example`;
  await page.getByLabel("Server to block").fill(`  ${domain.toUpperCase()} `);
  await page.getByRole("button", { name: "Block Server" }).click();
  await expect(toast(page, "Server Blocked")).toBeVisible();
  const blocked = page.getByRole("list", { name: "Blocked servers" }).getByRole("listitem").filter({ hasText: domain });
  await expect(blocked).toHaveCount(1);
  // Not a host name: said under the field, nothing sent.
  await page.getByLabel("Server to block").fill("not a server");
  await page.getByRole("button", { name: "Block Server" }).click();
  await expect(page.getByRole("alert").filter({ hasText: /host name/ })).toBeVisible();

  await page.getByRole("radio", { name: "Failed" }).check({ force: true });
  await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
  expect(await axeViolations(page, { include: ["[role=tabpanel]:not([hidden])"], impact: "any" })).toEqual([]);

  await follower.getByRole("button", { name: `Remove ${handle}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Follower" }).click();
  await expect(toast(page, "Follower Removed")).toBeVisible();
  await expect(page.getByTestId("fediverse-follower-count")).toHaveText(
    `${(total - 1).toLocaleString("en-US")} ${total - 1 === 1 ? "follower" : "followers"}`,
  );

  await blocked.getByRole("button", { name: `Unblock ${domain}` }).click();
  await expect(toast(page, "Server Unblocked")).toBeVisible();
  await expect(blocked).toHaveCount(0);
});

test("Stats shows the followers over time and each post's likes, boosts and replies", async ({ page }) => {
  await logIn(page);
  await skipWithoutHandlers(page);
  const stats = (await (await page.request.get("/api/stats/fediverse")).json()) as { followers: { total: number }[] };
  await openSection(page, "Stats");
  await expect(page.getByTestId("stats-fediverse-followers")).toHaveText((stats.followers.at(-1)?.total ?? 0).toLocaleString("en-US"));
  await expect(page.getByText("Likes, boosts and replies per post")).toBeVisible();
});
