import { expect, test, type Page } from "@playwright/test";
import { inboxFor } from "./local-inbox.ts";
import { axeViolations } from "./axe.ts";

const uniqueEmail = (tag: string) => `${tag}-${String(Date.now())}@example.com`;

async function expectNoSeriousAxeProblems(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/** Asks for a sign-in on /account by keyboard alone: the email, then Enter. */
async function askByKeyboard(page: Page, email: string): Promise<void> {
  await page.goto("/account");
  const emailField = page.getByLabel("Email", { exact: true });
  await expect(emailField).toBeVisible();
  await emailField.focus();
  await page.keyboard.type(email);
  await page.keyboard.press("Tab");
  await expect(page.getByRole("button", { name: "Email me a sign-in code" })).toBeFocused();
  await page.keyboard.press("Enter");
  await expect(page.getByText("Check your inbox: we sent you an email to sign in.")).toBeVisible();
}

test("a reader signs in with the code from the local inbox, sees /account, changes their name and signs out", async ({ page, request }) => {
  const email = uniqueEmail("reader");
  // Not subscribed yet: the same answer, and the sign-up-and-confirm email.
  await askByKeyboard(page, email);
  const [confirmation] = await inboxFor(request, email, 1);
  expect(confirmation?.subject).toBe("Confirm your subscription to No Filter");
  await page.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();

  await askByKeyboard(page, email);
  await expectNoSeriousAxeProblems(page);
  const mails = await inboxFor(request, email, 3);
  const signIn = mails.find((mail) => mail.subject.startsWith("Your No Filter sign-in code"));
  const code = /(\d{6})$/.exec(signIn?.subject ?? "")?.[1] ?? "";
  expect(code).toMatch(/^\d{6}$/);
  const codeField = page.getByLabel("6-digit code");
  await expect(codeField).toBeFocused();
  await page.keyboard.type(code);
  await page.keyboard.press("Enter");

  await expect(page.getByText(email)).toBeVisible();
  await expectNoSeriousAxeProblems(page);
  await page.getByLabel("Display name").fill("Rita Reader");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Name saved.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Display name")).toHaveValue("Rita Reader");

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByText("You're signed out.")).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Email", { exact: true })).toBeVisible();
  expect((await request.get("/api/readers/me")).status()).toBe(401);
});

test("the email's link opens a Continue page that spends nothing until pressed", async ({ page, request, baseURL }) => {
  const email = uniqueEmail("linkreader");
  const headers = { origin: new URL(baseURL ?? "").origin };
  await request.post("/api/readers/sign-in", { data: { email }, headers });
  const [confirmation] = await inboxFor(request, email, 1);
  await page.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await page.getByRole("button", { name: "Confirm subscription" }).click();
  await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();
  await request.post("/api/readers/sign-in", { data: { email }, headers });
  const signIn = (await inboxFor(request, email, 3)).find((mail) => mail.subject.startsWith("Your No Filter sign-in code"));
  const link = signIn?.links.find((href) => href.includes("/account/continue#token=")) ?? "";
  expect(link).not.toBe("");
  // A scanner's GET and HEAD of the link.
  await request.get(link);
  await request.head(link);
  await page.goto(link);
  await expectNoSeriousAxeProblems(page);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByText(email)).toBeVisible();
});
