import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { keyRing, type Signer } from "../../src/core/shared/signer.ts";
import { signConfirmToken, signUnsubscribeToken } from "../../src/core/mail/subscription-tokens.ts";
import { hydrated, toast } from "./islands.ts";
import { e2eStateDir, localServerInfo } from "./local-server.ts";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

const uniqueEmail = (tag: string) => `${tag}-${String(Date.now())}@example.com`;

/** Signs an address up with the home page's form, as a visitor does. */
async function subscribeOnHome(page: Page, email: string): Promise<void> {
  await page.goto("/");
  const form = (await hydrated(page, "NewsletterForm")).locator("form");
  await form.getByLabel("Email address").fill(email);
  await form.getByRole("button", { name: "Subscribe" }).click();
  // Generous: the shared server may be rebuilding the site for an earlier spec's change.
  await expect(toast(page, "Subscribed!")).toBeVisible({ timeout: 15_000 });
}

async function expectNoSeriousAxeProblems(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

test("subscribe on / → the confirmation email in the local inbox → its button confirms → the welcome email's unsubscribe link", async ({
  page,
  request,
}) => {
  const email = uniqueEmail("inbox");
  await subscribeOnHome(page, email);
  const [confirmation] = await inboxFor(request, email, 1);
  expect(confirmation?.subject).toBe("Confirm your subscription to No Filter");
  const confirmLink = confirmation?.links.find((link) => link.includes("/api/newsletter/confirm"));
  expect(confirmLink).toBeDefined();
  await page.goto(confirmLink ?? "");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();

  const [welcome] = await inboxFor(request, email, 2);
  const unsubscribeLink = /^<(.+)>$/.exec(welcome?.headers["list-unsubscribe"] ?? "")?.[1];
  expect(welcome?.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  expect(welcome?.links).toContain(unsubscribeLink);
  await page.goto(unsubscribeLink ?? "");
  await page.getByRole("button", { name: "Unsubscribe" }).click();
  await expect(page.getByRole("heading", { name: "You're unsubscribed" })).toBeVisible();
});

test("a download request → the download email in the local inbox: its link serves the file, its button confirms the newsletter", async ({
  page,
  request,
  baseURL,
}) => {
  const [resource] = (await (await request.get("/api/downloads")).json()) as { id: number; title: string }[];
  if (!resource) throw new Error("the demo content has no resource");
  const email = uniqueEmail("download-mail");
  const answer = await request.post(`/api/downloads/${String(resource.id)}/request`, { data: { email }, headers: { origin: baseURL ?? "" } });
  expect(answer.status()).toBe(200);
  const [mail] = await inboxFor(request, email, 1);
  expect(mail?.subject).toBe(`Your download: ${resource.title}`);
  const fileLink = mail?.links.find((link) => link.includes(`/api/downloads/${String(resource.id)}/file?`));
  expect((await request.get(fileLink ?? "")).status()).toBe(200);
  expect(mail?.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  await page.goto(mail?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();
  expect((await inboxFor(request, email, 2))[0]?.subject).toBe("You're in: welcome to No Filter");
});

// The pages themselves, with links signed as the server signs them (its local SESSION_SECRET): the
// states an inbox journey does not reach, axe on each, and the buttons without JavaScript.
test.describe("the confirm and unsubscribe pages", () => {
  let db: pg.Client;
  let secret: Signer;

  test.beforeAll(async () => {
    db = new pg.Client({ connectionString: (await localServerInfo()).databaseUrl });
    await db.connect();
    const stateDir = e2eStateDir();
    secret = keyRing([
      (JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-secrets.json"), "utf8")) as { SESSION_SECRET: string }).SESSION_SECRET,
    ]);
  });
  test.afterAll(async () => {
    await db.end();
  });

  /** The subscriber and their open consent record: what the confirmation email's link names. */
  async function pendingSignup(email: string): Promise<{ id: number; consentId: number; status: string }> {
    const { rows } = await db.query<{ id: number; consent_id: number; status: string }>(
      "SELECT s.id, c.id AS consent_id, s.status FROM subscribers s JOIN subscriber_consents c ON c.subscriber_id = s.id WHERE s.email = $1 ORDER BY c.id DESC LIMIT 1",
      [email],
    );
    const row = rows[0];
    if (!row) throw new Error(`no signup for ${email}`);
    return { id: row.id, consentId: row.consent_id, status: row.status };
  }
  const statusOf = async (email: string) => (await pendingSignup(email)).status;

  test("confirm by the button, then unsubscribe by the button; the pages pass axe and work without JavaScript", async ({ browser, page }) => {
    const email = uniqueEmail("pages");
    await subscribeOnHome(page, email);
    const signup = await pendingSignup(email);
    expect(signup.status).toBe("pending");

    const confirm = `/api/newsletter/confirm?token=${signConfirmToken(secret, signup.id, signup.consentId, new Date())}`;
    await page.goto(confirm);
    await expect(page.getByRole("heading", { name: "Confirm your subscription" })).toBeVisible();
    // The site's own page: its header, footer and fonts, not a page apart.
    await expect(
      page
        .getByRole("banner")
        .getByRole("link", { name: /No Filter/ })
        .first(),
    ).toBeVisible();
    await expect(page.getByRole("contentinfo")).toBeVisible();
    expect(await page.evaluate(() => getComputedStyle(document.querySelector("h1") as Element).fontFamily)).toMatch(/Archivo Black/);
    await expectNoSeriousAxeProblems(page);
    expect(await statusOf(email)).toBe("pending");

    // The button is a plain form post from the site's own origin: it works without JavaScript.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const noJs = await context.newPage();
    await noJs.goto(confirm);
    await noJs.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(noJs.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();
    expect(await statusOf(email)).toBe("active");
    await context.close();

    await page.goto(confirm);
    await expect(page.getByRole("heading", { name: "You're already subscribed" })).toBeVisible();
    await expectNoSeriousAxeProblems(page);

    await page.goto(`/api/newsletter/unsubscribe?token=${signUnsubscribeToken(secret, signup.id)}`);
    await expect(page.getByRole("heading", { name: "Unsubscribe from No Filter?" })).toBeVisible();
    await expectNoSeriousAxeProblems(page);
    expect(await statusOf(email)).toBe("active");
    await page.getByRole("button", { name: "Unsubscribe" }).click();
    await expect(page.getByRole("heading", { name: "You're unsubscribed" })).toBeVisible();
    await expectNoSeriousAxeProblems(page);
    expect(await statusOf(email)).toBe("unsubscribed");
  });

  test("a link that is not valid says so and leads back to the signup form", async ({ page }) => {
    const response = await page.goto("/api/newsletter/confirm?token=c.1.1.99999999999.forged");
    expect(response?.status()).toBe(403);
    await expect(page.getByRole("heading", { name: "This link isn't valid" })).toBeVisible();
    await expectNoSeriousAxeProblems(page);
    await page.getByRole("link", { name: "Subscribe again" }).click();
    await expect(page).toHaveURL(/\/#newsletter$/);
    await expect(page.locator("#newsletter").getByLabel("Email address")).toBeVisible();
  });
});
