import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { logIn, openSection, unique } from "./admin.ts";
import { firstPostPath } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

// Issue 44's done-when: a reader signs in with the code from the local inbox, comments on a demo
// post, sees "awaiting approval"; the owner approves it in the dashboard; a second browser shows it
// under the post within seconds; a second reader replies and the first gets the reply email.

const uniqueEmail = (tag: string) => `${tag}-${String(Date.now())}@example.com`;

/** Makes `email` a confirmed subscriber (a sign-in request for a stranger sends the sign-up-and-confirm email). */
async function confirmedReader(page: Page, request: APIRequestContext, email: string, origin: string): Promise<void> {
  await request.post("/api/readers/sign-in", { data: { email }, headers: { origin } });
  const [confirmation] = await inboxFor(request, email, 1);
  await page.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();
}

/**
 * Signs in on the page "Sign in to comment" opened: the email, then the 6-digit code from the local
 * inbox (`mailsBefore`: the confirmation and the welcome email already there).
 */
async function signInWithCode(page: Page, request: APIRequestContext, email: string, mailsBefore: number): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  const mails = await inboxFor(request, email, mailsBefore + 1);
  const code = /(\d{6})$/.exec(mails.find((mail) => mail.subject.startsWith("Your No Filter sign-in code"))?.subject ?? "")?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  await page.getByLabel("6-digit code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/**
 * The post's comments, shown: nothing of them loads before the reader scrolls or asks (the page's
 * 5 KB budget), so a short post's reader presses "Show comments".
 */
async function openComments(page: Page, postPath: string) {
  await page.goto(postPath);
  const region = page.getByRole("region", { name: "Comments" });
  // Dispatched, not clicked: a click scrolls the button into view first, that scroll wakes the
  // comments by themselves (comments-loader.ts), the button leaves the page, and the click waited for it.
  await region.getByRole("button", { name: "Show comments" }).dispatchEvent("click");
  await expect(region.getByText(/\d+ comments?$/)).toBeVisible();
  return region;
}

test("a reader comments, sees it awaiting approval, the owner approves it, a second browser shows it; a reply emails the first reader", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const post = await firstPostPath(page);
  const first = uniqueEmail("commenter");
  const origin = new URL(baseURL ?? "").origin;
  await confirmedReader(page, request, first, origin);

  // Signed out: "Sign in to comment" leads to the reader sign-in and back to the post.
  let region = await openComments(page, post);
  await region.getByRole("link", { name: "Sign in to comment" }).click();
  await expect(page).toHaveURL(/\/account\?return=/);
  await signInWithCode(page, request, first, 2);
  await expect(page).toHaveURL(new RegExp(`${post.replace(/\/$/, "")}/?#comments$`));
  await page.request.put("/api/readers/me", { data: { name: "Rita Reader" }, headers: { origin } });
  region = await openComments(page, post);

  // The form: keyboard and axe.
  const text = unique("First thoughts from Rita");
  const box = region.getByLabel("Your comment");
  await box.focus();
  await page.keyboard.type(text);
  await expect(region.getByText(`${String(text.length)} / 5,000`)).toBeVisible();
  expect(await axeViolations(page, { include: ["#comments"] })).toEqual([]);
  await page.keyboard.press("Tab");
  await expect(region.getByRole("button", { name: "Post comment" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(region.getByText("Your comment is awaiting approval", { exact: false })).toBeVisible();
  const mine = region.locator("[data-comment]").filter({ hasText: text });
  await expect(mine.getByText("Awaiting approval")).toBeVisible();
  await expect(mine.getByRole("button", { name: "Edit" })).toBeVisible();

  // A visitor does not see it yet.
  const visitor = await browser.newContext();
  const visitorPage = await visitor.newPage();
  const visitorRegion = await openComments(visitorPage, post);
  await expect(visitorRegion.getByText(text)).toHaveCount(0);

  // The owner approves it from the queue (axe on the queue).
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await logIn(ownerPage);
  await openSection(ownerPage, "Comments");
  const row = ownerPage.locator("tr").filter({ hasText: text });
  await expect(row).toBeVisible();
  await expect(row.getByText(first)).toBeVisible();
  expect(await axeViolations(ownerPage)).toEqual([]);
  await row.getByRole("button", { name: "Approve the comment by Rita Reader" }).click();
  await expect(row).toHaveCount(0);

  // Within seconds, the other browser shows it under the post.
  await expect
    .poll(
      async () => {
        const shown = await openComments(visitorPage, post);
        return shown.getByText(text).count();
      },
      { timeout: 10_000 },
    )
    .toBe(1);

  // A second reader replies; once the owner approves the reply, the first reader gets the reply email.
  const second = uniqueEmail("replier");
  const secondContext = await browser.newContext();
  const secondPage = await secondContext.newPage();
  await confirmedReader(secondPage, request, second, origin);
  await secondPage.goto("/account");
  await signInWithCode(secondPage, request, second, 2);
  await expect(secondPage.getByText(second)).toBeVisible();
  const secondRegion = await openComments(secondPage, post);
  await secondRegion.getByRole("button", { name: "Reply to Rita Reader" }).first().click();
  const replyText = unique("A reply to Rita");
  await expect(secondRegion.getByLabel("Your comment")).toBeFocused();
  await secondRegion.getByLabel("Your comment").fill(replyText);
  await secondRegion.getByRole("button", { name: "Post comment" }).click();
  // The innermost comment holding the text: the reply, not the thread it sits in.
  await expect(secondRegion.locator("[data-comment]").filter({ hasText: replyText }).last().getByText("Awaiting approval")).toBeVisible();
  const mailsBefore = (await inboxFor(request, first, 3)).length;
  await ownerPage.reload();
  const replyRow = ownerPage.locator("tr").filter({ hasText: replyText });
  await replyRow.getByRole("checkbox").check();
  await ownerPage.getByRole("button", { name: "Approve chosen" }).click();
  await expect(replyRow).toHaveCount(0);
  const mails = await inboxFor(request, first, mailsBefore + 1, 30_000);
  const notice = mails.find((mail) => mail.subject.includes("replied to your comment"));
  expect(notice?.links.some((link) => link.includes(`${post.replace(/\/$/, "")}/#comment-`))).toBe(true);
  // One click out of these notices (RFC 8058).
  expect(notice?.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");

  await Promise.all([visitor.close(), owner.close(), secondContext.close()]);
});

test("without JavaScript, a signed-in reader reads and writes comments on the server-rendered comments page (issue 44 point 6)", async ({
  page,
  browser,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const post = await firstPostPath(page);
  const email = uniqueEmail("nojs");
  const origin = new URL(baseURL ?? "").origin;
  await confirmedReader(page, request, email, origin);
  // Sign in with the code where a script runs, then carry the reader cookie to a browser without one.
  await page.goto("/account");
  await signInWithCode(page, request, email, 2);
  await expect(page.getByText(email)).toBeVisible();
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const plain = await noScript.newPage();

  await plain.goto(post);
  await plain.getByRole("link", { name: "Read and write comments" }).click();
  await expect(plain).toHaveURL(new RegExp(`${post.replace(/\/$/, "")}/comments/$`));
  await expect(plain.getByRole("heading", { name: "Comments" })).toBeVisible();
  const text = unique("Written without a script");
  await plain.getByLabel("Your comment", { exact: true }).fill(text);
  await plain.getByRole("button", { name: "Post comment" }).click();

  // The form's 303 lands back on the page with the notice; the comment shows to its author, marked.
  await expect(plain).toHaveURL(/\/comments\/\?notice=held#comments$/);
  await expect(plain.getByRole("status").filter({ hasText: "awaiting approval" })).toBeVisible();
  const mine = plain.locator('li[id^="comment-"]').filter({ hasText: text });
  await expect(mine.getByText("Awaiting approval")).toBeVisible();
  await noScript.close();

  // Issue 44 point 2: the reader follows "Your comments" from their page to the list of what they wrote.
  await page.goto("/account");
  await page.getByRole("link", { name: "Your comments", exact: true }).click();
  await expect(page).toHaveURL(/\/account\/comments\/$/);
  await expect(page.getByRole("heading", { name: "Your comments" })).toBeVisible();
  const listed = page.getByRole("listitem").filter({ hasText: text });
  await expect(listed.getByText("Awaiting approval")).toBeVisible();
  await listed.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`${post.replace(/\/$/, "")}/#comment-\\d+$`));
});

test("a reader edits and deletes their own comment from the thread, and turns reply emails back on from their page", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const post = await firstPostPath(page);
  const email = uniqueEmail("editor");
  const origin = new URL(baseURL ?? "").origin;
  await confirmedReader(page, request, email, origin);
  await page.goto("/account");
  await signInWithCode(page, request, email, 2);
  await expect(page.getByText(email)).toBeVisible();

  // Edit within the 15 minutes (the window's end is the server's: route test "editing and deleting").
  const region = await openComments(page, post);
  const text = unique("Tpyo in my comment");
  await region.getByLabel("Your comment").fill(text);
  await region.getByRole("button", { name: "Post comment" }).click();
  const mine = () => region.locator("[data-comment]").filter({ has: page.getByText("Awaiting approval") });
  await expect(mine().filter({ hasText: text })).toBeVisible();
  await mine().filter({ hasText: text }).getByRole("button", { name: "Edit" }).click();
  const box = region.getByLabel("Your comment");
  await expect(box).toBeFocused();
  await expect(box).toHaveValue(text);
  const fixed = text.replace("Tpyo", "Typo");
  await box.fill(fixed);
  await region.getByRole("button", { name: "Post comment" }).click();
  await expect(region.getByRole("status")).toHaveText("Your comment is saved.");
  const edited = mine().filter({ hasText: fixed });
  await expect(edited.getByText("(edited)")).toBeVisible();
  await expect(region.getByText(text)).toHaveCount(0);

  // Delete, after the confirmation.
  page.once("dialog", (dialog) => void dialog.accept());
  await edited.getByRole("button", { name: "Delete" }).click();
  await expect(region.getByRole("status")).toHaveText("Your comment is deleted.");
  await expect(region.getByText(fixed)).toHaveCount(0);

  // Reply emails: off as a reply email's one-click unsubscribe leaves them (route test "turns reply
  // emails back on…" does that POST); the reader's page shows it and turns them on from the keyboard.
  await page.request.put("/api/readers/me/reply-notices", { data: { on: false }, headers: { origin } });
  await page.goto("/account");
  const replies = page.getByRole("checkbox", { name: "Email me when someone replies to my comment" });
  await expect(replies).not.toBeChecked();
  await replies.focus();
  await page.keyboard.press("Space");
  await expect(page.locator("#main").getByRole("status")).toHaveText(/Reply emails are on/);
  await page.reload();
  await expect(replies).toBeChecked();
  expect(((await (await page.request.get("/api/readers/me")).json()) as { replyNotices: boolean }).replyNotices).toBe(true);
  expect(await axeViolations(page, { include: ["[data-account]"] })).toEqual([]);
});

test("a post card's comment count follows an approval without a rebuild (issue 44 points 6 and 7)", async ({ page, browser }) => {
  test.setTimeout(90_000);
  await page.goto("/blog");
  const card = page.locator("[data-card-comments]").first();
  const postId = (await card.getAttribute("data-card-comments")) ?? "";
  const counts = async () =>
    ((await (await page.request.get(`/api/comments/counts?posts=${postId}`)).json()) as { counts: { comments: number }[] }).counts[0]?.comments ?? 0;
  const before = await counts();
  // The owner writes as the author: approved at once, no rebuild asked for.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await logIn(ownerPage);
  const written = await ownerPage.request.post(`/api/posts/${postId}/comments`, {
    data: { body: unique("A word from the author") },
    headers: { origin: new URL(ownerPage.url()).origin },
  });
  expect(written.status()).toBe(201);
  const after = before + 1;
  await expect
    .poll(
      async () => {
        await page.reload();
        return page.locator(`[data-card-comments="${postId}"]`).first().textContent();
      },
      { timeout: 15_000 },
    )
    .toContain(`${String(after)} ${after === 1 ? "comment" : "comments"}`);
  await expect(page.locator(`[data-card-comments="${postId}"]`).first()).toBeVisible();
  await owner.close();
});
