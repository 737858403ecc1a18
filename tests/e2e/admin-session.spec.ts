import { expect, test } from "@playwright/test";
import pg from "pg";
import { adminLogin, logIn } from "./admin.ts";
import { toast } from "./islands.ts";
import { localServerInfo } from "./local-server.ts";
import { recordRequests } from "./page-requests.ts";
import { adminSections } from "../../src/islands/admin/sections.ts";
import { axeViolations } from "./axe.ts";

/** Forgets failed logins: they count per client address, and every test here is the same address. */
async function forgetLoginFailures() {
  const db = new pg.Client({ connectionString: (await localServerInfo()).databaseUrl });
  await db.connect();
  try {
    await db.query("DELETE FROM login_throttle");
  } finally {
    await db.end();
  }
}

// Each test starts with the whole budget, so one test's wrong passwords never throttle the next one's login.
test.beforeEach(forgetLoginFailures);

test("the dashboard page is kept out of search engines and ships no dashboard markup", async ({ request }) => {
  const { adminPath } = await adminLogin();
  const response = await request.get(adminPath);
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
  // Client-only: no form, no tab, nothing about the dashboard is in the built page.
  expect(html).not.toContain("Blog Posts");
  expect(html).not.toContain("<form");
  // No public file names the path: Netlify's rule files are not served, and no header rule holds it.
  for (const file of ["/_headers", "/_redirects"]) {
    const rules = await request.get(file);
    expect(rules.status(), file).toBe(404);
    expect(await rules.text(), file).not.toContain(adminPath.replace(/^\//, ""));
  }
});

test("login: required fields, wrong password, then the right one; a reload keeps the session", async ({ page }) => {
  const { adminPath, username, password } = await adminLogin();
  await page.goto(adminPath);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByText("Username is required")).toBeVisible();
  await expect(page.getByText("Password is required")).toBeVisible();
  await expect(page.getByLabel("Username")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Login Failed")).toContainText("Invalid username or password.");
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toHaveCount(0);

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Login Successful")).toContainText("Welcome to the admin dashboard!");
  for (const tab of ["Blog Posts", "Downloads", "Email Subscribers", "Site Settings", "Security"]) {
    await expect(page.getByRole("tab", { name: tab })).toBeVisible();
  }

  await page.reload();
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
});

test("a throttled login says when to try again", async ({ page }) => {
  const { adminPath } = await adminLogin();
  await page.goto(adminPath);
  // The failures this test makes are forgotten afterwards too, or every later login from this
  // machine (other specs included) would wait 15 minutes.
  try {
    await page.getByLabel("Username").fill(`intruder-${String(Date.now())}`);
    await page.getByLabel("Password").fill("guess");
    for (let attempt = 1; attempt <= 5; attempt++) {
      await page.getByRole("button", { name: "Login" }).click();
      await expect(toast(page, "Login Failed")).toContainText("Invalid username or password.");
      await page.locator(".nf-toast").getByRole("button", { name: "Close" }).click();
    }
    await page.getByRole("button", { name: "Login" }).click();
    await expect(toast(page, "Login Failed")).toContainText(/Too many failed logins\. Try again in \d+ (minutes?|seconds?)\./);
  } finally {
    await forgetLoginFailures();
  }
});

test("a network failure during login says so", async ({ page }) => {
  const { adminPath, username, password } = await adminLogin();
  await page.goto(adminPath);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.route("**/api/auth/login", (route) => route.abort("internetdisconnected"));
  await page.getByRole("button", { name: "Login" }).click();
  await expect(toast(page, "Login Failed")).toContainText("Login failed. Please try again.");
});

test("logout ends the session on the server: the old cookie is refused; the form never calls it an expired session", async ({ page }) => {
  await page.clock.install();
  await logIn(page);
  const cookies = await page.context().cookies();
  const cookieHeader = cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; ");
  const before = await page.request.get("/api/newsletter/subscribers", { headers: { cookie: cookieHeader } });
  expect(before.status()).toBe(200);

  const calls = recordRequests(page, (request) => new URL(request.url()).pathname.startsWith("/api/"));
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toHaveCount(0);
  // A chosen logout is not an expired session: the form says nothing of one, now or after every
  // timer the page had set has run, and no call since the logout was refused for want of a session.
  await page.clock.fastForward("05:00");
  const answered = await Promise.all(
    (await calls.soFar()).map(async (call) => `${call.method()} ${new URL(call.url()).pathname} ${String((await call.response())?.status())}`),
  );
  expect(answered.filter((answer) => answer.endsWith(" 401"))).toEqual([]);
  await expect(page.getByText("Your session has expired")).toHaveCount(0);
  calls.stop();

  const after = await page.request.get("/api/newsletter/subscribers", { headers: { cookie: cookieHeader } });
  expect(after.status()).toBe(401);
  await page.reload();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
});

async function expireSessions() {
  const db = new pg.Client({ connectionString: (await localServerInfo()).databaseUrl });
  await db.connect();
  try {
    await db.query("DELETE FROM admin_sessions");
  } finally {
    await db.end();
  }
}

test("an expired session returns to the login form with a message", async ({ page }) => {
  await logIn(page);
  await expireSessions();
  // The dashboard's next call finds the session gone: this click's, or a poll already due (a site build or the mail
  // queue being watched) that may take the tabs away first; either way the login form says why.
  await page
    .getByRole("tab", { name: "Email Subscribers" })
    .click({ timeout: 5_000 })
    .catch(() => undefined);
  await expect(page.getByRole("alert").filter({ hasText: "Your session has expired. Please log in again." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
});

test("a post written while the session expired survives logging in again", async ({ page }) => {
  const { username, password } = await adminLogin();
  await logIn(page);
  const form = page.locator("#admin-post-form");
  const title = `Long read ${String(Date.now())}`;
  await form.getByLabel("Title").fill(title);
  await form.getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("An hour of writing.");
  await expireSessions();
  await form.getByRole("button", { name: "Create Post" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your session has expired. Please log in again." })).toBeVisible();
  await expect(page.getByLabel("Username")).toBeFocused();

  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(form.getByLabel("Title")).toHaveValue(title);
  await expect(form.getByRole("textbox", { name: "Content" })).toHaveText("An hour of writing.");
  // Back where the owner was working.
  await expect(form.getByRole("button", { name: "Create Post" })).toBeFocused();
  await form.getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  const item = page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });
  await item.getByRole("button", { name: `Delete ${title}` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete Post" }).click();
  await expect(item).toHaveCount(0);
});

test("a slow call that fails under the old session does not end the new one", async ({ page }) => {
  const { username, password } = await adminLogin();
  await logIn(page);
  await page.getByRole("tab", { name: "Downloads" }).click();
  const form = page.locator("#admin-download-form");
  await form.getByLabel("Title").fill("Slow upload");
  await form.getByLabel("Description").fill("Sent just before the session ran out.");
  await form.getByLabel("Category").selectOption("Guides");
  await form
    .getByLabel("File", { exact: true })
    .setInputFiles({ name: "slow.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n%%EOF\n") });
  // The upload is held on its way until the owner has logged in again, then reaches the server
  // with the cookie it was sent with, which the server no longer knows.
  let release = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/api/downloads", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    await released;
    await route.fulfill({ response: await route.fetch() });
  });
  await form.getByRole("button", { name: "Upload Resource" }).click();
  await expireSessions();
  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Your session has expired" })).toBeVisible();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();

  const answered = page.waitForResponse((response) => response.url().endsWith("/api/downloads") && response.request().method() === "POST");
  release();
  expect((await answered).status()).toBe(401);
  await expect(toast(page, "Error")).toContainText("Failed to create downloadable resource.");
  // The new session goes on: no login form, the dashboard stays.
  await expect(page.getByRole("button", { name: "Login" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
});

// axe scans every section at any impact in dashboard-sections.spec.ts; scanning each again here for the
// serious ones only (thirteen scans, most of this test's 57 s in a full run) found nothing that one could not.
test("the sections work from the keyboard (the sidebar's arrow keys), and axe finds no serious problem on the login form", async ({ page }) => {
  const { adminPath } = await adminLogin();
  await page.goto(adminPath);
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await logIn(page);
  await page.getByRole("tab", { name: "Blog Posts" }).focus();
  // Every section after the first, in the sidebar's order.
  for (const name of adminSections.slice(1).map((section) => section.label)) {
    await page.keyboard.press("ArrowDown");
    const tab = page.getByRole("tab", { name });
    await expect(tab).toBeFocused();
    await expect(tab).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel")).toBeVisible();
    await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
  }
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toBeFocused();
});

test("the dashboard runs under the site's Content-Security-Policy without a violation or error", async ({ page }) => {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" || /Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  await logIn(page);
  // A chosen image previews from a blob: URL, which the policy must allow.
  await page
    .locator("#admin-post-form")
    .getByLabel("Featured Image")
    .setInputFiles(new URL("../../netlify/local/demo-content/files/cover-runway-math.png", import.meta.url).pathname);
  await expect(page.getByRole("img", { name: "Featured image preview" })).toHaveJSProperty("complete", true);
  expect(await page.getByRole("img", { name: "Featured image preview" }).evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(
    0,
  );
  for (const tab of ["Downloads", "Email Subscribers", "Site Settings", "Security"]) {
    await page.getByRole("tab", { name: tab }).click();
    await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
  }
  expect(problems).toEqual([]);
});
