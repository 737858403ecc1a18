import { expect, test, type Page } from "@playwright/test";
import { logIn, openSection, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";

// Issue 42 point 6: the owner adds a poll to a post and sends it; a reader answers from the local
// inbox (a click opens a page, only its Confirm button records); the owner sees it in the results.
const form = (page: Page) => page.locator("#admin-post-form");

test("the owner adds a poll to a post and sends it; a reader answers from the inbox; the owner sees the result", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await logIn(page);
  const runId = String(Date.now()).slice(-7);
  const reader = `poll-reader-${runId}@example.com`;
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: { file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${reader}\r\n`) }, consent: "true" },
  });
  expect(imported.status()).toBe(200);

  // The post, with a poll from the toolbar's Poll button.
  const title = unique("Where does your money come from");
  const question = `How are you funded? ${runId}`;
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Tell me, in one click.");
  await form(page).getByRole("button", { name: "Poll", exact: true }).click();
  const dialog = page.getByRole("group", { name: "New poll" });
  await dialog.getByLabel("Question").fill(question);
  await dialog.getByLabel("Answer 1", { exact: true }).fill("Bootstrapped");
  await dialog.getByLabel("Answer 2", { exact: true }).fill("Venture");
  await dialog.getByLabel("Tag (optional)").nth(1).fill(`funded:venture-${runId}`);
  await dialog.getByRole("button", { name: "Add answer" }).click();
  await dialog.getByLabel("Answer 3", { exact: true }).fill("Customers");
  await dialog.getByRole("button", { name: "Add poll" }).click();
  await expect(dialog).toBeHidden();
  await expect(form(page).getByRole("textbox", { name: "Content" })).toContainText(question);
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByLabel("Email to subscribers when published").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();

  // The reader's email: one link per answer; "Venture" is the second.
  const [mail] = await inboxFor(request, reader, 1, 90_000);
  expect(mail?.subject).toBe(title);
  const pollLinks = (mail?.links ?? []).filter((link) => link.includes("/api/polls/"));
  expect(pollLinks).toHaveLength(3);

  // A scanner opens every link: nothing is recorded.
  for (const link of pollLinks) expect((await request.get(link)).status()).toBe(200);
  const pollId = Number(/\/api\/polls\/(\d+)\//.exec(pollLinks[0] ?? "")?.[1]);
  const results = async () =>
    (await (await page.request.get(`/api/polls/${String(pollId)}`)).json()) as {
      total: number;
      answers: { text: string; count: number; percent: number }[];
    };
  expect((await results()).total).toBe(0);

  // The reader clicks "Venture" and confirms, in a browser of their own.
  const context = await browser.newContext({ baseURL: baseURL ?? "" });
  const readerPage = await context.newPage();
  await readerPage.goto(pollLinks[1] ?? "");
  await expect(readerPage.getByRole("heading", { name: question })).toBeVisible();
  await expect(readerPage.getByRole("radio", { name: "Venture" })).toBeChecked();
  await readerPage.getByRole("button", { name: "Confirm" }).click();
  await expect(readerPage.getByText("Thanks, your answer is saved")).toBeVisible();
  await context.close();

  expect(await results()).toMatchObject({
    total: 1,
    answers: [
      { text: "Bootstrapped", count: 0, percent: 0 },
      { text: "Venture", count: 1, percent: 100 },
      { text: "Customers", count: 0, percent: 0 },
    ],
  });
  // The answer's tag is on the person.
  const people = (await (await page.request.get(`/api/newsletter/subscribers?tag=${encodeURIComponent(`funded:venture-${runId}`)}`)).json()) as {
    email: string;
  }[];
  expect(people.map((person) => person.email)).toEqual([reader]);

  // The owner sees it in Stats → Polls, under the post.
  await openSection(page, "Stats");
  const poll = page.getByRole("table", { name: `Poll: ${question}` });
  await expect(poll).toBeVisible();
  await expect(poll.locator("caption")).toContainText("(1 answered)");
  await expect(poll.getByRole("row", { name: /Venture/ })).toContainText("100%");
});
