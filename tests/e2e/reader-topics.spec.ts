import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./admin.ts";
import { hydrated, toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

// Issue 42 points 2 and 3: the owner marks a topic; a reader subscribes, confirms from the local
// inbox, picks the topic on the confirmation page, and later changes what they get from an email's
// "Choose what you get" link, without logging in.
const runId = String(Date.now()).slice(-7);

async function subscribeOnHome(page: Page, email: string): Promise<void> {
  await page.goto("/");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(page, "Subscribed!")).toBeVisible({ timeout: 15_000 });
}

test("the owner marks a topic; a reader picks it on the confirmation page, then changes what they get from an email's link", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  // The owner: a tag, then marked as a topic with a description for readers in the Tags panel.
  await logIn(page);
  const topic = `Funding ${runId}`;
  const made = await page.request.post("/api/tags", { headers: { origin: baseURL ?? "" }, data: { name: topic, topic: false } });
  expect(made.status(), await made.text()).toBe(201);
  await page.reload();
  const row = page.getByRole("form", { name: `Tag ${topic}` });
  await row.getByLabel("Description (optional)").fill("Rounds, term sheets and the money talk.");
  await row.getByLabel("Readers may follow it (a topic)").check();
  await row.getByRole("button", { name: "Save" }).click();
  await expect(toast(page, "Tag Updated")).toBeVisible();
  const tags = (await (await request.get("/api/tags")).json()) as { slug: string; name: string; topic: boolean }[];
  const slug = tags.find((tag) => tag.name === topic)?.slug ?? "";
  expect(tags.find((tag) => tag.slug === slug)).toMatchObject({ topic: true });

  // The reader, in a browser of their own (never logged in).
  const context = await browser.newContext({ baseURL: baseURL ?? "" });
  const reader = await context.newPage();
  const email = `topics-${runId}@example.com`;
  await subscribeOnHome(reader, email);
  const [confirmation] = await inboxFor(request, email, 1);
  await reader.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await reader.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(reader.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();
  // The topic choice, right away: only this topic, every post.
  await reader.getByRole("radio", { name: /^Only the topics I tick/ }).check();
  await reader.getByRole("checkbox", { name: new RegExp(`^${topic}`) }).check();
  await expect(reader.getByText("Rounds, term sheets and the money talk.")).toBeVisible();
  await reader.getByRole("button", { name: "Save" }).click();
  await expect(reader.getByRole("heading", { name: "Choose what you get" })).toBeVisible();
  await expect(reader.getByText("Saved. Your choice applies from the next email.")).toBeVisible();
  await expect(reader.getByRole("checkbox", { name: new RegExp(`^${topic}`) })).toBeChecked();

  // Later, from the welcome email in the local inbox: "Choose what you get", no login.
  const [welcome] = await inboxFor(request, email, 2);
  const preferencesLink = welcome?.links.find((link) => link.includes("/api/newsletter/preferences?token="));
  expect(preferencesLink).toBeDefined();
  const before = (await (await request.get((preferencesLink ?? "").replace("/api/newsletter/preferences", "/api/preferences"))).json()) as unknown;
  expect(before).toMatchObject({
    everything: false,
    frequency: "each",
    topics: expect.arrayContaining([{ slug, name: topic, description: "Rounds, term sheets and the money talk.", followed: true }]),
  });
  await reader.goto(preferencesLink ?? "");
  // No serious accessibility problem on the page.
  expect(await axeViolations(reader)).toEqual([]);
  await expect(reader.getByText(/^For t\*\*\*@example\.com\./)).toBeVisible();
  await expect(reader.getByRole("checkbox", { name: new RegExp(`^${topic}`) })).toBeChecked();
  await reader.getByRole("radio", { name: /^Everything/ }).check();
  await reader.getByRole("radio", { name: /^Weekly digest/ }).check();
  await reader.getByRole("button", { name: "Save" }).click();
  await expect(reader.getByText("Saved. Your choice applies from the next email.")).toBeVisible();
  await expect(reader.getByRole("radio", { name: /^Everything/ })).toBeChecked();
  await expect(reader.getByRole("radio", { name: /^Weekly digest/ })).toBeChecked();
  const after = (await (await request.get((preferencesLink ?? "").replace("/api/newsletter/preferences", "/api/preferences"))).json()) as unknown;
  expect(after).toMatchObject({ everything: true, frequency: "weekly", email: "t***@example.com" });
  await context.close();
});
