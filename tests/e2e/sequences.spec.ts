import { expect, test } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { hydrated, toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";

interface Sequence {
  key: string;
  enabled: boolean;
  steps: { id: number; delayMinutes: number; subject: string; html: string }[];
}

test("a two-step welcome sequence set up in the dashboard reaches a new subscriber in order", async ({ page, request, baseURL }) => {
  test.setTimeout(90_000);
  await logIn(page);
  // Other specs expect the welcome as it is: it is put back however this test ends.
  const before = ((await (await page.request.get("/api/sequences")).json()) as Sequence[]).find((sequence) => sequence.key === "welcome");
  if (!before) throw new Error("no welcome sequence");
  try {
    await page.getByRole("tab", { name: "Sequences" }).click();
    const editor = page.getByRole("region", { name: "Welcome" });
    await expect(editor.getByLabel("Subject")).toHaveCount(before.steps.length);
    const first = unique("Welcome, step one");
    const second = unique("Welcome, step two");
    await editor.getByLabel("Subject").first().fill(first);
    await editor.getByRole("button", { name: "Add step" }).click();
    const step2 = editor.getByRole("group", { name: `Step ${String(before.steps.length + 1)}` });
    await step2.getByLabel("Subject").fill(second);
    await step2.getByRole("textbox", { name: `Step ${String(before.steps.length + 1)} body` }).click();
    await page.keyboard.type("The second step, right after the first.");
    await step2.getByLabel("Delay after the previous step").fill("0");
    await step2.getByLabel("Unit").selectOption("minutes");
    // The unsaved step previews as it would be mailed.
    const stepName = `Step ${String(before.steps.length + 1)}`;
    await step2.getByRole("button", { name: `Preview ${stepName}` }).click();
    await expect(step2.getByText(`Subject: ${second}`)).toBeVisible();
    await expect(page.frameLocator(`iframe[title="${stepName} email preview"]`).getByText("The second step, right after the first.")).toBeVisible();
    // A test needs the saved words: the new step says so until the sequence is saved.
    await expect(step2.getByText("Save the sequence to send a test of this step.")).toBeVisible();
    await editor.getByRole("button", { name: "Save sequence" }).click();
    await expect(toast(page, "Sequence Saved")).toBeVisible();

    // Then a test of step two reaches the address given, marked as a test.
    const tester = `sequence-test-${String(Date.now())}@example.com`;
    const testForm = editor.getByRole("form", { name: `Send a test of step ${String(before.steps.length + 1)}` });
    await expect(testForm.getByRole("button", { name: "Send test" })).toBeEnabled();
    await testForm.getByLabel("Test address").fill(tester);
    await expect(testForm.getByLabel("Test address")).toHaveValue(tester);
    await testForm.getByRole("button", { name: "Send test" }).click();
    await expect(toast(page, "Test Sent")).toContainText(tester);
    const [testMail] = await inboxFor(request, tester, 1);
    expect(testMail?.subject).toBe(`[Test] ${second}`);

    const email = `sequence-${String(Date.now())}@example.com`;
    await page.goto("/");
    const form = (await hydrated(page, "NewsletterForm")).locator("form");
    await form.getByLabel("Email address").fill(email);
    await form.getByRole("button", { name: "Subscribe" }).click();
    await expect(toast(page, "Subscribed!")).toBeVisible({ timeout: 15_000 });
    const [confirmation] = await inboxFor(request, email, 1);
    await page.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
    await page.getByRole("button", { name: "Confirm subscription" }).click();
    await expect(page.getByRole("heading", { name: "You're subscribed!" })).toBeVisible();

    // Newest first: the confirmation, then step one, then step two.
    const mails = await inboxFor(request, email, 3);
    expect(mails.map((mail) => mail.subject)).toEqual([second, first, confirmation?.subject]);
    expect(mails[0]?.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
  } finally {
    const put = await page.request.put("/api/sequences/welcome", {
      headers: { origin: baseURL ?? "" },
      data: { enabled: before.enabled, steps: before.steps.map(({ id, delayMinutes, subject, html }) => ({ id, delayMinutes, subject, html })) },
    });
    expect(put.status()).toBe(200);
  }
});
