import { readFile } from "node:fs/promises";
import path from "node:path";
import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { e2eStateDir, localServerInfo } from "./local-server.ts";
import { toast } from "./islands.ts";

/** The dashboard's address and login, as `npm start` printed and kept them (in its state folder: this project's server's by default). */
export async function adminLogin(stateDir = e2eStateDir()): Promise<{ adminPath: string; username: string; password: string }> {
  const secrets = JSON.parse(await readFile(path.join(stateDir, ".netlify", "local-secrets.json"), "utf8")) as { ADMIN_PASSWORD: string };
  const adminPath = new URL((await localServerInfo(stateDir)).adminUrl).pathname;
  return { adminPath, username: "admin", password: secrets.ADMIN_PASSWORD };
}

/** Opens the dashboard and logs in through its form (`stateDir`: the state folder of a server other than the project's). */
export async function logIn(page: Page, stateDir?: string): Promise<void> {
  const { adminPath, username, password } = await adminLogin(stateDir);
  await page.goto(adminPath);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  // Under other servers' work on the same cores a login's answer took over 5 s (its scrypt was then at the production cost;
  // npm start's generated password is now hashed at N = 2^14: decision 0094).
  await expect(toast(page, "Login Successful")).toContainText("Welcome to the admin dashboard!", { timeout: 30_000 });
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
}

/** Opens a dashboard section by its tab: in the sidebar on a laptop, behind the Sections menu on a phone. */
export async function openSection(page: Page, name: string): Promise<void> {
  const tab = page.getByRole("tab", { name, exact: true });
  if (!(await tab.isVisible())) await page.getByRole("button", { name: /^Sections:/ }).click();
  await tab.click();
}

/**
 * Waits for the rebuilt site to pass `check` on `pagePath` (publishing rebuilds in the
 * background; a rebuild takes a few seconds here).
 */
export async function eventually(request: APIRequestContext, pagePath: string, check: (html: string, status: number) => boolean) {
  const deadline = Date.now() + 60_000;
  let last = "";
  while (Date.now() < deadline) {
    const response = await request.get(pagePath);
    last = await response.text();
    if (check(last, response.status())) return last;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${pagePath} never showed the change; last answer:\n${last.slice(0, 500)}`);
}

/** A unique text for this run, so reruns against the same data don't collide. */
export const unique = (label: string) => `${label} ${String(Date.now()).slice(-7)}`;
