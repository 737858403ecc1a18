import { expect, test } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";

test("the owner makes a subscribers:read key, lists subscribers with it alone, then revokes it", async ({ page, playwright, baseURL }) => {
  const email = `key-reader-${String(Date.now())}@example.com`;
  expect((await page.request.post("/api/newsletter/subscribe", { data: { email }, headers: { origin: baseURL ?? "" } })).ok()).toBe(true);

  await logIn(page);
  await page.getByRole("tab", { name: "Integrations" }).click();
  const name = unique("CRM sync");
  const form = page.getByRole("form", { name: "New API key" });
  await form.getByLabel("Name").fill(name);
  await form.getByRole("checkbox", { name: /subscribers:read/ }).check();
  await form.getByRole("button", { name: "Create Key" }).click();
  await expect(toast(page, "API Key Created")).toBeVisible();
  const key = (await page.getByRole("region", { name: "New API key" }).getByLabel("The new key").textContent()) ?? "";
  expect(key).toMatch(/^nf_/);
  const listed = page.getByRole("list", { name: "API keys" }).getByRole("listitem").filter({ hasText: name });
  await expect(listed).toContainText("subscribers:read");
  await expect(listed).toContainText("Last used Never");

  // As curl or a CRM would call: the Bearer header only, no cookie, no Origin.
  const outside = await playwright.request.newContext({ baseURL });
  const answer = await outside.get("/api/newsletter/subscribers", { headers: { authorization: `Bearer ${key}` } });
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { email: string }[]).map((subscriber) => subscriber.email)).toContain(email);
  // Its scope only.
  const stats = await outside.get("/api/stats", { headers: { authorization: `Bearer ${key}` } });
  expect(stats.status()).toBe(403);
  expect(((await stats.json()) as { error: string }).error).toBe("This key lacks the scope stats:read");

  // The list read again (a reload keeps the session) shows the call as the key's last use.
  await page.reload();
  await page.getByRole("tab", { name: "Integrations" }).click({ timeout: 30_000 });
  await expect(listed).not.toContainText("Last used Never");

  await listed.getByRole("button", { name: `Revoke ${name}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Revoke Key" }).click();
  await expect(toast(page, "API Key Revoked")).toBeVisible();
  await expect(listed).toHaveCount(0);
  expect((await outside.get("/api/newsletter/subscribers", { headers: { authorization: `Bearer ${key}` } })).status()).toBe(401);
  await outside.dispose();
});
