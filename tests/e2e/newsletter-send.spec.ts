import { expect, test, type Page } from "@playwright/test";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { refusedOnceReply } from "../../netlify/local/mail-catcher.ts";
import { inboxFor, refusedOnceAddress } from "./local-inbox.ts";
import { apiCall, recordRequests } from "./page-requests.ts";
import { axeViolations } from "./axe.ts";

const form = (page: Page) => page.locator("#admin-post-form");
const postItem = (page: Page, title: string) => page.getByRole("list", { name: "Posts" }).getByRole("listitem").filter({ hasText: title });

test("the owner previews a post's newsletter, sends a test, sends it to every active subscriber and watches it finish; a second send is refused", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await logIn(page);

  // A few people on the list, imported as the owner would (the fresh e2e site may have none).
  const stamp = String(Date.now());
  const readers = ["ada", "grace"].map((name) => `${name}-send-${stamp}@example.com`);
  await importSubscribers(page, baseURL, readers);
  const subscribers = (await (await page.request.get("/api/newsletter/subscribers")).json()) as { status: string }[];
  const active = subscribers.filter((subscriber) => subscriber.status === "active").length;
  expect(active).toBeGreaterThanOrEqual(2);
  const n = `${String(active)} subscribers`;

  // A published post: drafts offer no send.
  const title = unique("Runway letter");
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByLabel("Excerpt").fill("Count the months before they count you.");
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type("Twelve months of runway is a plan; three is a warning.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  await expect(postItem(page, title)).toContainText("Published");

  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  await expect(panel).toBeVisible();

  // The preview: the email itself, in a sandboxed frame.
  const frame = panel.locator('iframe[title="Email preview"]');
  await expect(frame).toHaveAttribute("sandbox", "");
  await expect(page.frameLocator('iframe[title="Email preview"]').getByText(title).first()).toBeVisible();
  await expect(panel.getByText(`Subject: ${title}`)).toBeVisible();
  await expect(panel.getByText("Not sent yet.")).toBeVisible();

  expect(await axeViolations(page, { include: ["#newsletter-panel"], exclude: ["iframe"], impact: "any" })).toEqual([]);

  // "Send test": the site's contact address to start with; one email to the address given, and to nobody on the list.
  const settings = (await (await page.request.get("/api/site-settings")).json()) as { key: string; value: string }[];
  const contact = settings.find((setting) => setting.key === "contact_email")?.value ?? "";
  expect(contact).toContain("@");
  await expect(panel.getByLabel("Test address")).toHaveValue(contact);
  const tester = `owner-test-${stamp}@example.com`;
  await panel.getByLabel("Test address").fill(tester);
  await panel.getByRole("button", { name: "Send test" }).click();
  await expect(toast(page, "Test Sent")).toContainText(tester);
  const [testMail] = await inboxFor(page.request, tester, 1);
  expect(testMail?.subject).toBe(`[Test] ${title}`);
  await inboxFor(page.request, readers[0] ?? "", 0);

  // The send to the list, asked first with how many it reaches.
  await panel.getByRole("button", { name: `Send to ${n}` }).click();
  const dialog = page.getByRole("alertdialog");
  await expect(dialog).toContainText(`Send “${title}” to ${n}?`);
  // The demo's postal address is still the example: the dialog says so and asks to send anyway.
  await expect(dialog).toContainText("Your postal address is still the example one");
  await expect(dialog).toContainText("This can't be undone.");
  await dialog.getByRole("button", { name: "Send anyway" }).click();

  // Progress until done: every active subscriber sent, none pending.
  const sends = panel.getByRole("list", { name: "Sends" });
  await expect(sends.getByRole("listitem")).toHaveCount(1);
  const entry = sends.getByRole("listitem").first();
  await expect(entry.getByRole("progressbar", { name: "Send progress" })).toBeVisible();
  await expect(entry.getByRole("status")).toHaveText("Sent", { timeout: 60_000 });
  await expect(entry).toContainText(`Sent: ${String(active)}`);
  await expect(entry).toContainText("Failed: 0");
  await expect(entry).toContainText("Pending: 0");
  await expect(entry).toContainText("Finished");
  await expect(entry.getByRole("progressbar", { name: "Send progress" })).toHaveAttribute("value", String(active));
  for (const reader of readers) expect((await inboxFor(page.request, reader, 1))[0]?.subject).toBe(title);

  // A post is sent once: the panel says so instead of offering the send, and the API refuses it.
  await expect(panel.getByRole("button", { name: /^Send to / })).toHaveCount(0);
  await expect(panel).toContainText("This post was already sent as the newsletter");
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { id: number; title: string }[];
  const postId = posts.find((candidate) => candidate.title === title)?.id;
  const again = await page.request.post("/api/newsletter/sends", { headers: { origin: baseURL ?? "" }, data: { postId } });
  expect(again.status()).toBe(409);
  expect(await again.json()).toEqual({ error: "This post was already sent as the newsletter" });

  // The history stays after the panel is closed and opened again.
  await panel.getByRole("button", { name: "Close" }).click();
  await expect(panel).toHaveCount(0);
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  await expect(panel.getByRole("list", { name: "Sends" }).getByRole("listitem")).toContainText(`Sent: ${String(active)}`);
});

test("a send refused because the post went out meanwhile (409) is shown as a clear message", async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await logIn(page);
  const stamp = String(Date.now());
  await importSubscribers(page, baseURL, [`lin-send-${stamp}@example.com`]);
  const title = unique("Sent elsewhere");
  await publish(page, title, "Sent from another tab.");
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  const sendButton = panel.getByRole("button", { name: /^Send to \d+ subscribers?$/ });
  await expect(sendButton).toBeVisible();

  // Another tab sends it first.
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { id: number; title: string }[];
  const postId = posts.find((candidate) => candidate.title === title)?.id;
  expect((await page.request.post("/api/newsletter/sends", { headers: { origin: baseURL ?? "" }, data: { postId } })).status()).toBe(202);

  await sendButton.click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^(Send to |Send anyway)/ })
    .click();
  await expect(panel.getByRole("alert")).toHaveText("This post was already sent as the newsletter");
  await expect(panel.getByRole("list", { name: "Sends" }).getByRole("listitem")).toHaveCount(1);
  await expect(panel.getByRole("button", { name: /^Send to / })).toHaveCount(0);
  // The send waits for the post's page and fixes its recipients when it starts: it must have
  // started before the next test adds people to the list (they would get it too).
  await expect(panel.getByRole("list", { name: "Sends" }).getByRole("listitem").getByRole("status").first()).toHaveText("Sent", { timeout: 60_000 });
});

test("a refused address is listed with the server's reply; Retry failed sends to it again, the progress is followed until done, then the polling stops", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  // The page's timers run on a clock the test can stop and move: the polling is driven below.
  await page.clock.install();
  await logIn(page);
  const refusing = refusedOnceAddress(`retry-${String(Date.now())}`);
  await importSubscribers(page, baseURL, [refusing]);
  const subscribers = (await (await page.request.get("/api/newsletter/subscribers")).json()) as { status: string }[];
  const active = subscribers.filter((subscriber) => subscriber.status === "active").length;
  const title = unique("Second chance");
  await publish(page, title, "Sent again to the one address that refused it.");

  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });
  await panel.getByRole("button", { name: /^Send to \d+ subscribers?$/ }).click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^(Send to |Send anyway)/ })
    .click();
  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem").first();
  await expect(entry.getByRole("status")).toHaveText("Sent", { timeout: 60_000 });
  await expect(entry).toContainText(`Sent: ${String(active - 1)}`);
  await expect(entry).toContainText("Failed: 1");
  await expect(entry.getByRole("list", { name: "Failed addresses" }).getByRole("listitem")).toHaveText([`${refusing} — 550 ${refusedOnceReply}`]);
  await inboxFor(page.request, refusing, 0);

  const polls = recordRequests(page, apiCall("GET", /^\/api\/newsletter\/sends\/\d+$/));
  await entry.getByRole("button", { name: "Retry failed" }).click();
  await expect(toast(page, "Retrying Failed")).toBeVisible();
  await expect(entry.getByRole("status")).toHaveText("Sending");
  await expect(entry.getByRole("status")).toHaveText("Sent", { timeout: 30_000 });
  await expect(entry).toContainText(`Sent: ${String(active)}`);
  await expect(entry).toContainText("Failed: 0");
  await expect(entry.getByRole("button", { name: "Retry failed" })).toHaveCount(0);
  expect((await inboxFor(page.request, refusing, 1))[0]?.subject).toBe(title);
  const followed = (await polls.soFar()).map((request) => request.url());
  expect(followed.length).toBeGreaterThanOrEqual(1);

  // Ten polling periods on the page's clock after the send is done: not one more request.
  await page.clock.pauseAt(await page.evaluate(() => Date.now() + 1000));
  await page.clock.runFor(10_000);
  expect((await polls.soFar()).map((request) => request.url())).toEqual(followed);
  polls.stop();
});

test("a provider outage pauses the send and the transactional mail, the dashboard says so, and both finish once the provider is back", async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await logIn(page);
  const stamp = String(Date.now());
  const reader = `outage-reader-${stamp}@example.com`;
  await importSubscribers(page, baseURL, [reader]);
  const title = unique("Outage letter");
  await publish(page, title, "Sent through an outage.");
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const panel = page.getByRole("region", { name: `Send as newsletter: ${title}` });

  // The provider goes down: a test email to this address makes the local catcher answer 421 to
  // everyone for 20 s (tests/e2e/server-process.ts). The test email waits in the outbox, which
  // pauses.
  const outageAddress = `provider-outage+${stamp}@example.com`;
  await panel.getByLabel("Test address").fill(outageAddress);
  await panel.getByRole("button", { name: "Send test" }).click();
  await expect(toast(page, "Test Sent")).toBeVisible();
  await expect
    .poll(async () => ((await (await page.request.get("/api/mail/outbox")).json()) as { paused: { reason: string } | null }).paused?.reason ?? "", {
      timeout: 30_000,
    })
    .toMatch(/^421 /);

  // The send to the list pauses too, with nobody failed.
  await panel.getByRole("button", { name: /^Send to \d+ subscribers?$/ }).click();
  await page
    .getByRole("alertdialog")
    .getByRole("button", { name: /^(Send to |Send anyway)/ })
    .click();
  const entry = panel.getByRole("list", { name: "Sends" }).getByRole("listitem").first();
  await expect(entry.getByText(/^Paused: 421 /)).toBeVisible({ timeout: 30_000 });
  await expect(entry).toContainText("Failed: 0");

  // Email Subscribers: the paused outbox and the pending test email, with Retry.
  await panel.getByRole("button", { name: "Close" }).click();
  await page.getByRole("tab", { name: "Email Subscribers" }).click();
  const health = page.getByRole("region", { name: "Email delivery" });
  await expect(health.getByText(/^Paused: 421 /)).toBeVisible();
  await expect(health.getByRole("list", { name: "Pending and failed email" })).toContainText(`Test send to ${outageAddress}`);
  await expect(health).toContainText("Failed: 0");
  // Once the provider is back, Retry sends it at once (a Retry during the outage pauses it again).
  await expect(async () => {
    await health.getByRole("button", { name: "Retry" }).click();
    await expect(health).toHaveCount(0, { timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  expect((await inboxFor(page.request, outageAddress, 1))[0]?.subject).toBe(`[Test] ${title}`);

  // The send goes on by itself after its pause, and finishes: the reader gets it once.
  await page.getByRole("tab", { name: "Blog Posts" }).click();
  await postItem(page, title)
    .getByRole("button", { name: `Send ${title} as newsletter` })
    .click();
  const resumed = panel.getByRole("list", { name: "Sends" }).getByRole("listitem").first();
  await expect(resumed.getByText("Sent", { exact: true })).toBeVisible({ timeout: 90_000 });
  await expect(resumed).toContainText("Failed: 0");
  await expect(resumed.getByText(/^Paused:/)).toHaveCount(0);
  expect((await inboxFor(page.request, reader, 1))[0]?.subject).toBe(title);
});

/** People on the list, imported as the owner would (the fresh e2e site may have none). */
async function importSubscribers(page: Page, baseURL: string | undefined, emails: string[]) {
  const imported = await page.request.post("/api/newsletter/subscribers/import", {
    headers: { origin: baseURL ?? "" },
    multipart: { file: { name: "list.csv", mimeType: "text/csv", buffer: Buffer.from(`email\r\n${emails.join("\r\n")}\r\n`) }, consent: "true" },
  });
  expect(imported.status()).toBe(200);
}

/** Writes and publishes a post through the dashboard's form: drafts offer no send. */
async function publish(page: Page, title: string, content: string) {
  await form(page).getByLabel("Title").fill(title);
  await form(page).getByRole("textbox", { name: "Content" }).click();
  await page.keyboard.type(content);
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();
  await expect(postItem(page, title)).toContainText("Published");
}
