import { expect, test } from "@playwright/test";
import { adminLogin, logIn, openSection } from "./admin.ts";
import { adminSections } from "../../src/islands/admin/sections.ts";
import { axeViolations } from "./axe.ts";

test("each section has its own address: the back button walks them, and a link opens one after the login", async ({ page }) => {
  const { adminPath } = await adminLogin();
  await logIn(page);
  const root = new URL(page.url()).pathname.replace(/\/$/, "");
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toHaveAttribute("aria-selected", "true");

  await openSection(page, "Stats");
  await expect(page).toHaveURL(new RegExp(`${root}/stats$`));
  await expect(page.getByRole("tab", { name: "Stats" })).toHaveAttribute("aria-selected", "true");
  await openSection(page, "Email Subscribers");
  await expect(page).toHaveURL(new RegExp(`${root}/subscribers$`));

  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`${root}/stats$`));
  await expect(page.getByRole("tab", { name: "Stats" })).toHaveAttribute("aria-selected", "true");
  await page.goBack();
  await expect(page.getByRole("tab", { name: "Blog Posts" })).toHaveAttribute("aria-selected", "true");
  await page.goForward();
  await expect(page.getByRole("tab", { name: "Stats" })).toHaveAttribute("aria-selected", "true");

  // An address straight to a section (as an email would link it) opens that section.
  await page.goto(`${adminPath.replace(/\/$/, "")}/integrations`);
  await expect(page.getByRole("tab", { name: "Integrations" })).toHaveAttribute("aria-selected", "true");
  // The old hash links still work.
  await page.goto(`${adminPath.replace(/\/$/, "")}#integrations`);
  await expect(page.getByRole("tab", { name: "Integrations" })).toHaveAttribute("aria-selected", "true");
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test("the sections sit behind one menu button, not in rows of tabs", async ({ page }) => {
    await logIn(page);
    const menu = page.getByRole("button", { name: "Sections: Blog Posts" });
    await expect(menu).toBeVisible();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("tab", { name: "Stats" })).toBeHidden();
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await page.getByRole("tab", { name: "Stats" }).click();
    await expect(page.getByRole("button", { name: "Sections: Stats" })).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByRole("tab", { name: "Blog Posts" })).toBeHidden();
    await expect(page).toHaveURL(/\/stats$/);
  });
});

test("on a laptop the sections are a sidebar beside the work, all in one column", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page);
  const tabs = page.getByRole("tablist", { name: "Dashboard sections" }).getByRole("tab");
  await expect(page.getByRole("button", { name: /^Sections:/ })).toBeHidden();
  const boxes = await tabs.evaluateAll((elements) => elements.map((element) => element.getBoundingClientRect().toJSON() as DOMRect));
  expect(boxes.length).toBe(adminSections.length);
  // One above the other, same left edge, left of the section's content.
  expect(new Set(boxes.map((box) => Math.round(box.left))).size).toBe(1);
  for (let index = 1; index < boxes.length; index++) expect(boxes[index]?.top ?? 0).toBeGreaterThan(boxes[index - 1]?.top ?? 0);
  const panel = await page.getByRole("tabpanel").first().boundingBox();
  expect(panel?.x ?? 0).toBeGreaterThan((boxes[0]?.right ?? 0) - 1);
});

test("every section is clean: no console warning or error, and axe finds nothing at any impact", async ({ page }) => {
  test.setTimeout(120_000);
  const messages: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "warning" || message.type() === "error") messages.push(`${message.type()}: ${message.text()}`);
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await logIn(page);
  // Each section's panel while it is shown, then the whole page once: its header, sidebar and page-wide rules (one
  // main landmark, one h1, no id twice across all twelve panels, now all mounted). Scanning the whole page at every
  // section took 33 s of the browser's time against 20 for the panels alone.
  for (const { label: name } of adminSections) {
    await openSection(page, name);
    await expect(page.getByRole("status", { name: "Loading" })).toHaveCount(0);
    expect(await axeViolations(page, { impact: "any", include: ['[role="tabpanel"][data-state="active"]'] }), name).toEqual([]);
  }
  // Back to the first, past every hidden section: nothing warned on the way.
  await openSection(page, "Blog Posts");
  expect(await axeViolations(page, { impact: "any" }), "the whole page").toEqual([]);
  expect(messages).toEqual([]);
});
