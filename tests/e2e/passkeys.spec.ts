import { readFile } from "node:fs/promises";
import { createHash } from "node:crypto";
import { expect, test, type Page } from "@playwright/test";
import pg from "pg";
import { adminLogin, logIn } from "./admin.ts";
import { toast } from "./islands.ts";
import { localServerInfo } from "./local-server.ts";
import { axeViolations } from "./axe.ts";

/**
 * Chromium's virtual authenticator (the CDP WebAuthn domain): a platform authenticator that keeps
 * discoverable credentials and verifies its user, so passkeys are created and used with no prompt.
 */
async function addVirtualAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
}

async function database<T>(work: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: (await localServerInfo()).databaseUrl });
  await db.connect();
  try {
    return await work(db);
  } finally {
    await db.end();
  }
}

test.beforeEach(async () => {
  // Failed logins of other specs from this same address must not throttle these.
  await database((db) => db.query("DELETE FROM login_throttle"));
});

// Other specs log in with the password alone on this server: never leave the requirement on.
test.afterEach(async () => {
  await database((db) => db.query("UPDATE admin_security SET passkey_required = false"));
});

// Nor a passkey: a registered one ticks the setup checklist's "Your own admin password", which the
// setup specs read as a new site's (they ran later on the same server in CI and found it done).
test.afterAll(async () => {
  await database(async (db) => {
    await db.query("DELETE FROM admin_recovery_codes");
    await db.query("DELETE FROM admin_passkeys");
  });
});

async function openSecurity(page: Page): Promise<void> {
  await page.getByRole("tab", { name: "Security" }).click();
  await expect(page.getByRole("heading", { name: "Passkeys" })).toBeVisible();
  await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
}

async function addPasskey(page: Page, name: string): Promise<void> {
  await page.getByLabel("Passkey name").fill(name);
  await page.getByRole("button", { name: "Add Passkey" }).click();
  await expect(toast(page, "Passkey Added")).toContainText(`“${name}” can now sign you in.`);
  await expect(page.getByRole("list", { name: "Passkeys" }).getByRole("listitem").filter({ hasText: name })).toBeVisible();
}

async function logOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Logout" }).click();
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
}

async function passwordStep(page: Page): Promise<void> {
  const { username, password } = await adminLogin();
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await expect(page.getByRole("heading", { name: "Confirm It's You" })).toBeVisible();
  // The right password alone started no session.
  expect((await page.request.get("/api/auth/session")).ok()).toBe(true);
  expect(await (await page.request.get("/api/auth/session")).json()).toEqual({ authenticated: false });
}

async function expectLoggedIn(page: Page): Promise<void> {
  await expect(toast(page, "Login Successful")).toContainText("Welcome to the admin dashboard!");
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  await page.locator(".nf-toast").getByRole("button", { name: "Close" }).click();
}

test("register a passkey, log out, sign in with it alone; rename it and remove it", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await logIn(page);
  await openSecurity(page);
  const name = `Laptop ${String(Date.now()).slice(-6)}`;
  await addPasskey(page, name);
  const item = page.getByRole("list", { name: "Passkeys" }).getByRole("listitem").filter({ hasText: name });
  await expect(item).toContainText("Last used Never");
  // The authenticator already holds one for this site: the registration options exclude it.
  await page.getByLabel("Passkey name").fill("Same device again");
  await page.getByRole("button", { name: "Add Passkey" }).click();
  await expect(toast(page, "Passkey Not Added")).toContainText("This device already holds a passkey for this site.");
  await expect(page.getByRole("list", { name: "Passkeys" }).getByRole("listitem")).toHaveCount(1);
  await page.locator(".nf-toast").getByRole("button", { name: "Close" }).click();

  await logOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expectLoggedIn(page);
  await openSecurity(page);
  await expect(item).not.toContainText("Last used Never");

  await item.getByRole("button", { name: `Rename ${name}` }).click();
  await expect(page.getByLabel("New name")).toBeFocused();
  await page.getByLabel("New name").fill(`${name} (work)`);
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect(toast(page, "Passkey Renamed")).toBeVisible();
  const renamed = page
    .getByRole("list", { name: "Passkeys" })
    .getByRole("listitem")
    .filter({ hasText: `${name} (work)` });
  await renamed.getByRole("button", { name: `Remove ${name} (work)` }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Passkey" }).click();
  await expect(toast(page, "Passkey Removed")).toBeVisible();
  await expect(renamed).toHaveCount(0);

  // The authenticator still holds it, but the site no longer knows it.
  await logOut(page);
  await page.getByRole("button", { name: "Sign in with a passkey" }).click();
  await expect(toast(page, "Login Failed")).toContainText("This passkey is not registered here.");
  await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(0);
});

test("Require a passkey: the password then a passkey; a recovery code works once", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await logIn(page);
  await openSecurity(page);
  await addPasskey(page, "Second step key");
  await page.getByRole("button", { name: /(Generate|Replace) Recovery Codes/ }).click();
  const shown = page.getByRole("region", { name: "New recovery codes" }).getByRole("listitem");
  await expect(shown).toHaveCount(10);
  const codes = await shown.allTextContents();
  await expect(page.getByText("10 codes left.")).toBeVisible();
  // Nothing on top of them, and they leave whole: Copy and a text file.
  await expect(page.locator(".nf-toast")).toHaveCount(0);
  const region = page.getByRole("region", { name: "New recovery codes" });
  await expect(region).toBeFocused();
  const download = page.waitForEvent("download");
  await region.getByRole("link", { name: "Download" }).click();
  const file = await (await download).path();
  const saved = await readFile(file, "utf8");
  for (const code of codes) expect(saved).toContain(code);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await region.getByRole("button", { name: "Copy" }).click();
  await expect(region.getByText("Copied.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(saved);

  await page.getByRole("checkbox", { name: "Require a passkey" }).check();
  await expect(toast(page, "Setting Updated")).toContainText("A password login now needs a passkey as well.");
  await expect(page.getByRole("checkbox", { name: "Require a passkey" })).toBeChecked();

  await logOut(page);
  await passwordStep(page);
  await page.getByRole("button", { name: "Use Your Passkey" }).click();
  await expectLoggedIn(page);

  await logOut(page);
  await passwordStep(page);
  await page.getByLabel("Recovery code").fill(codes[0] ?? "");
  await page.getByRole("button", { name: "Use Recovery Code" }).click();
  await expectLoggedIn(page);
  await openSecurity(page);
  await expect(page.getByText("9 codes left.")).toBeVisible();

  await logOut(page);
  await passwordStep(page);
  await page.getByLabel("Recovery code").fill(codes[0] ?? "");
  await page.getByRole("button", { name: "Use Recovery Code" }).click();
  await expect(toast(page, "Login Failed")).toContainText("Invalid recovery code.");
  await expect(page.getByRole("button", { name: "Logout" })).toHaveCount(0);
  await page.locator(".nf-toast").getByRole("button", { name: "Close" }).click();
  await page.getByLabel("Recovery code").fill((codes[1] ?? "").toUpperCase());
  await page.getByRole("button", { name: "Use Recovery Code" }).click();
  await expectLoggedIn(page);

  await openSecurity(page);
  await page.getByRole("checkbox", { name: "Require a passkey" }).uncheck();
  await expect(toast(page, "Setting Updated")).toContainText("A password alone signs you in again.");
});

/**
 * Moves this browser's last sign-in 6 minutes back, as if that long had passed: the server runs on
 * real time, and a test must not wait for it.
 */
async function signedInLongAgo(page: Page): Promise<void> {
  const session = (await page.context().cookies()).find((cookie) => /^(__Host-)?nf_session$/.test(cookie.name));
  const tokenHash = createHash("sha256")
    .update(session?.value ?? "")
    .digest("hex");
  const moved = await database((db) =>
    db.query("UPDATE admin_sessions SET signed_in_at = now() - interval '6 minutes' WHERE token_hash = $1", [tokenHash]),
  );
  expect(moved.rowCount).toBe(1);
}

test("a security change long after the login asks “Confirm It's You” in place, by password or passkey, then goes ahead", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await logIn(page);
  await openSecurity(page);
  await addPasskey(page, "Confirming key");
  const confirm = page.getByRole("alertdialog", { name: "Confirm It's You" });

  await signedInLongAgo(page);
  await page.getByRole("button", { name: /(Generate|Replace) Recovery Codes/ }).click();
  await expect(confirm).toBeVisible();
  await expect(confirm.getByLabel("Password")).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await confirm.getByLabel("Password").fill("not the password");
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  // One scrypt of the password: past 5 s on the loaded 2-core CI machine when it was at the production cost.
  await expect(confirm).toContainText("Wrong password. Please try again.", { timeout: 15_000 });
  await confirm.getByLabel("Password").fill((await adminLogin()).password);
  await confirm.getByRole("button", { name: "Confirm", exact: true }).click();
  await expect(confirm).toHaveCount(0);
  // The change the owner asked for went ahead without a second click.
  await expect(page.getByRole("region", { name: "New recovery codes" }).getByRole("listitem")).toHaveCount(10);

  await signedInLongAgo(page);
  const item = page.getByRole("list", { name: "Passkeys" }).getByRole("listitem").filter({ hasText: "Confirming key" });
  await item.getByRole("button", { name: "Remove Confirming key" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Remove Passkey" }).click();
  await expect(confirm).toBeVisible();
  await confirm.getByRole("button", { name: "Use a passkey" }).click();
  await expect(toast(page, "Passkey Removed")).toBeVisible();
  await expect(item).toHaveCount(0);

  // Cancelled: nothing changes, and the owner is told so.
  await signedInLongAgo(page);
  await page.locator(".nf-toast").getByRole("button", { name: "Close" }).click();
  await page.getByRole("button", { name: "Replace Recovery Codes" }).click();
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(page.locator(".nf-toast")).toContainText("Nothing was changed: please confirm it's you to change your security settings.");
});

test("the Security area is reachable from the keyboard, and axe finds no serious problem on it or on the second step", async ({ page }) => {
  await addVirtualAuthenticator(page);
  await logIn(page);
  await page.getByRole("tab", { name: "Site Settings" }).focus();
  await page.keyboard.press("ArrowDown");
  await expect(page.getByRole("tab", { name: "Security" })).toBeFocused();
  await expect(page.getByRole("tab", { name: "Security" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
  await addPasskey(page, "Axe key");
  await page.getByRole("button", { name: /(Generate|Replace) Recovery Codes/ }).click();
  await expect(page.getByRole("region", { name: "New recovery codes" })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);

  await page.getByRole("checkbox", { name: "Require a passkey" }).check();
  await expect(toast(page, "Setting Updated")).toBeVisible();
  await logOut(page);
  await passwordStep(page);
  expect(await axeViolations(page)).toEqual([]);
});
