import { expect, test, type Browser, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { hydrated, toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";

// Issue 42's "done when": two readers follow different topics, the owner publishes one post in each
// topic with "Email to subscribers when published", and each reader's inbox holds exactly the post
// they chose.
const runId = String(Date.now()).slice(-7);

/** A reader in a browser of their own: subscribes on the home page, confirms, and keeps only `topic`. */
async function readerFollowing(browser: Browser, baseURL: string, page: Page, email: string, topic: string): Promise<void> {
  const context = await browser.newContext({ baseURL });
  const reader = await context.newPage();
  await reader.goto("/");
  const form = (await hydrated(reader, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(reader, "Subscribed!")).toBeVisible({ timeout: 15_000 });
  const [confirmation] = await inboxFor(page.request, email, 1);
  await reader.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await reader.getByRole("button", { name: "Confirm subscription" }).click();
  await reader.getByRole("radio", { name: /^Only the topics I tick/ }).check();
  await reader.getByRole("checkbox", { name: new RegExp(`^${topic}`) }).check();
  await reader.getByRole("button", { name: "Save" }).click();
  await expect(reader.getByText("Saved. Your choice applies from the next email.")).toBeVisible();
  await context.close();
}

test("two readers follow different topics; a post in each topic, emailed on publish, reaches only the reader who chose it", async ({
  page,
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const origin = { origin: baseURL ?? "" };
  await logIn(page);
  const topics = [`Funding ${runId}`, `Hiring ${runId}`];
  const slugs: string[] = [];
  for (const name of topics) {
    const made = await page.request.post("/api/tags", { headers: origin, data: { name, topic: true, description: `Posts about ${name}.` } });
    expect(made.status(), await made.text()).toBe(201);
    slugs.push(((await made.json()) as { slug: string }).slug);
  }
  const readers = [`funding-${runId}@example.com`, `hiring-${runId}@example.com`];
  for (const [index, email] of readers.entries()) await readerFollowing(browser, baseURL ?? "", page, email, topics[index] ?? "");

  // One post in each topic, published with "Email to subscribers when published".
  const titles = [unique("The seed round, line by line"), unique("Your first hire, honestly")];
  for (const [index, title] of titles.entries()) {
    const created = await page.request.post("/api/blog-posts", {
      headers: origin,
      multipart: { title, content: `<p>${title}.</p>`, published: "true", sendAsNewsletter: "true", tags: slugs[index] ?? "" },
    });
    expect(created.status(), await created.text()).toBe(201);
  }

  // Each reader gets their topic's post (confirmation, welcome, then the post: newest first) ...
  const funding = await inboxFor(page.request, readers[0] ?? "", 3, 90_000);
  const hiring = await inboxFor(page.request, readers[1] ?? "", 3, 90_000);
  expect(funding[0]?.subject).toBe(titles[0]);
  expect(hiring[0]?.subject).toBe(titles[1]);
  // ... and, once both sends have finished, nothing else: the other post never went to them.
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { id: number; title: string }[];
  for (const title of titles) {
    const id = posts.find((post) => post.title === title)?.id;
    await expect
      .poll(async () => ((await (await page.request.get(`/api/newsletter/sends?postId=${String(id)}`)).json()) as { status: string }[])[0]?.status, {
        timeout: 60_000,
      })
      .toBe("sent");
  }
  expect((await inboxFor(page.request, readers[0] ?? "", 3)).map((mail) => mail.subject)).not.toContain(titles[1]);
  expect((await inboxFor(page.request, readers[1] ?? "", 3)).map((mail) => mail.subject)).not.toContain(titles[0]);
});
