import { mkdtempSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { paymentsServerPort } from "../playwright.config.ts";
import { fakeStripeKey, fakeWebhookSecret, startFakeStripe, type FakeStripe } from "../support/fake-stripe.ts";
import { eventually, logIn, openSection, unique } from "./admin.ts";
import { toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";
import { serverEnv, startServerProcess, type ServerProcess } from "./server-process.ts";

/**
 * Issue 47's browser journey: the owner prices a resource, a reader buys it through the fake Stripe
 * Checkout, gets the file from the thank-you page once the signed event has arrived and from the
 * receipt in the local inbox, and the Revenue section shows the sale; a replayed event sends no
 * second receipt and a refund stops the link. The shared servers run without Stripe (paid features
 * hidden, other specs' page budgets kept), so this spec starts its own `npm start` with the fake
 * Stripe, on its own port and in a fresh state folder, and stops both when done.
 */

const baseURL = `http://localhost:${String(paymentsServerPort)}`;
const readerAgent = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

test.use({ baseURL });
test.describe.configure({ mode: "serial" });

/** Its own state folder, fresh each run (its database, files and site build). */
let stateDir = "";
let fake: FakeStripe | undefined;
let server: ServerProcess | undefined;
/** Between the fake's Pay button and the site: every event Stripe delivered, kept so the test can deliver one again. */
let relay: Server | undefined;
const delivered: { payload: string; header: string }[] = [];

test.beforeAll(async () => {
  // The first start builds the whole site: minutes on a shared machine.
  test.setTimeout(660_000);
  stateDir = mkdtempSync(path.join(process.env.E2E_STATE_DIR ?? ".", "payments-"));
  const webhookUrl = `${baseURL}/api/stripe/webhook`;
  const relayServer = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const event = { payload: Buffer.concat(chunks).toString("utf8"), header: String(request.headers["stripe-signature"]) };
      delivered.push(event);
      void fetch(webhookUrl, {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": event.header },
        body: event.payload,
      }).then(
        (answer) => response.writeHead(answer.status).end(),
        () => response.writeHead(502).end(),
      );
    });
  });
  relay = relayServer;
  await new Promise<void>((resolve) => relayServer.listen(0, "127.0.0.1", resolve));
  const stripe = await startFakeStripe({
    port: Number(process.env.E2E_FAKE_STRIPE_PORT ?? 0),
    webhookUrl: `http://127.0.0.1:${String((relayServer.address() as AddressInfo).port)}/`,
  });
  fake = stripe;
  const serverSpec = { port: paymentsServerPort, stateDir };
  const started = startServerProcess(serverSpec, {
    ...serverEnv(serverSpec),
    STRIPE_API_URL: stripe.url,
    STRIPE_SECRET_KEY: fakeStripeKey,
    STRIPE_WEBHOOK_SECRET: fakeWebhookSecret,
  });
  server = started;
  await started.ready;
});

test.afterAll(async () => {
  await server?.stop();
  await fake?.stop();
  await new Promise((resolve) => (relay ? relay.close(resolve) : resolve(undefined)));
});

test("a reader buys a resource through Checkout and downloads it from the thank-you page and the receipt; the Revenue section shows it; a replay sends nothing, a refund stops the link", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  if (!fake) throw new Error("The fake Stripe did not start");
  const stripe = fake;
  // The owner prices a new resource (the price field shows because Stripe is set up).
  await logIn(page, stateDir);
  await openSection(page, "Downloads");
  const form = page.locator("#admin-download-form");
  const title = unique("Financial model");
  const bytes = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from(`${title}\n`), Buffer.alloc(2048, 32), Buffer.from("\n%%EOF\n")]);
  await form.getByLabel("Title").fill(title);
  await form.getByLabel("Description").fill("A three-statement model for a seed round.");
  await form.getByLabel("Category").selectOption("Guides");
  await form.getByLabel("File", { exact: true }).setInputFiles({ name: "financial-model.pdf", mimeType: "application/pdf", buffer: bytes });
  await expect(form.getByText("Stripe test mode.")).toBeVisible();
  await form.getByLabel("Price (in cents)").fill("1900");
  await form.getByRole("button", { name: "Upload Resource" }).click();
  await expect(toast(page, "Download Created")).toBeVisible({ timeout: 30_000 });
  await eventually(request, "/downloads", (html) => html.includes(title) && html.includes("Buy for $19.00"));

  // A reader (their own browser, a normal user agent) buys it.
  const reader = await browser.newContext({ baseURL, userAgent: readerAgent, acceptDownloads: true });
  const visitor = await reader.newPage();
  await visitor.goto("/downloads");
  const card = visitor.locator("article").filter({ has: visitor.getByRole("heading", { name: title }) });
  await card.scrollIntoViewIfNeeded();
  await expect(card.getByRole("button", { name: "Get Free Download" })).toHaveCount(0);
  const buyer = `buyer-${String(Date.now())}@example.com`;
  await card.getByLabel("Email for your receipt and download link").fill(buyer);
  await card.getByRole("button", { name: "Buy for $19.00" }).click();
  await visitor.waitForURL(/\/checkout\/cs_test_/);
  await expect(visitor.getByRole("heading", { name: "Fake Stripe Checkout" })).toBeVisible();
  await expect(visitor.getByText(`${title}: 19.00 USD`)).toBeVisible();
  // The amount came from the server's stored price, not the browser.
  expect(stripe.calls.find((call) => call.path === "/v1/checkout/sessions")?.form["line_items[0][price_data][unit_amount]"]).toBe("1900");
  await expect(visitor.getByLabel("Email")).toHaveValue(buyer);
  await visitor.getByRole("button", { name: "Pay 19.00 USD" }).click();

  // Back on the thank-you page: the link shows once Stripe's event has arrived, and gives the file.
  await visitor.waitForURL(/\/thanks\/?\?session=cs_test_/);
  const sessionId = new URL(visitor.url()).searchParams.get("session") ?? "";
  const link = visitor.getByRole("link", { name: "Download the file" });
  await expect(link).toBeVisible({ timeout: 30_000 });
  const thanks = visitor.locator("[data-thanks]").getByRole("status");
  await expect(thanks).toContainText(`Payment received for ${title}`);
  const [download] = await Promise.all([visitor.waitForEvent("download"), link.click()]);
  expect(download.suggestedFilename()).toBe("financial-model.pdf");
  expect(Buffer.compare(await readFile(await download.path()), bytes)).toBe(0);

  // The receipt in the local inbox carries a link that gives the same file.
  const [receipt] = await inboxFor(request, buyer, 1, 30_000);
  expect(receipt?.subject).toBe("Your receipt from No Filter");
  const emailed = receipt?.links.find((href) => /\/api\/downloads\/\d+\/file\?/.test(href));
  expect(emailed).toBeDefined();
  const file = await reader.request.get(emailed ?? "");
  expect(file.status()).toBe(200);
  expect(file.headers()["content-type"]).toContain("application/pdf");
  expect(file.headers()["content-disposition"]).toContain("financial-model.pdf");
  expect(Buffer.compare(await file.body(), bytes)).toBe(0);

  // The owner's Revenue section shows the sale: its count and amount, and the payment.
  await openSection(page, "Revenue");
  const payments = page.getByRole("region", { name: /Payments/ });
  await expect(payments.getByRole("heading", { name: /Payments/ })).toContainText("Test mode");
  await expect(payments.getByRole("listitem").filter({ hasText: "Sales" })).toHaveText("Sales: 1, $19.00");
  const sales = payments.getByRole("table", { name: "Sales per resource" });
  await expect(sales.getByRole("row").filter({ hasText: title }).getByRole("cell")).toHaveText([title, "1", "$19.00"]);
  const latest = payments.getByRole("table", { name: "Latest payments" });
  await expect(latest.getByRole("row").filter({ hasText: title }).getByRole("cell").nth(3)).toHaveText("$19.00");

  // Stripe delivers the same event again: accepted, and nothing more is sent.
  const paid = delivered.find((event) => event.payload.includes('"checkout.session.completed"'));
  expect(paid).toBeDefined();
  const replay = await request.post("/api/stripe/webhook", {
    headers: { "content-type": "application/json", "stripe-signature": paid?.header ?? "" },
    data: paid?.payload ?? "",
  });
  expect(replay.status()).toBe(204);
  // The buyer then tips: its receipt is queued after anything the replay could have queued, so once
  // it has arrived a second receipt for the sale would have too. Two mails: one with the link, the tip's.
  const tip = await reader.request.post("/api/checkout", { headers: { origin: baseURL }, data: { kind: "tip", amount: 500, email: buyer } });
  expect(tip.status()).toBe(200);
  const tipSession = /\/checkout\/(cs_test_\w+)$/.exec(((await tip.json()) as { url: string }).url)?.[1] ?? "";
  const tipPaid = stripe.pay(tipSession);
  const tipDelivered = await request.post("/api/stripe/webhook", {
    headers: { "content-type": "application/json", "stripe-signature": tipPaid.header },
    data: tipPaid.payload,
  });
  expect(tipDelivered.status()).toBe(204);
  const mails = await inboxFor(request, buyer, 2, 30_000);
  expect(mails.filter((mail) => mail.links.some((href) => href === emailed))).toHaveLength(1);

  // A refund stops the link, on the thank-you page and in the email.
  const refund = stripe.refund(sessionId);
  const refunded = await request.post("/api/stripe/webhook", {
    headers: { "content-type": "application/json", "stripe-signature": refund.header },
    data: refund.payload,
  });
  expect(refunded.status()).toBe(204);
  expect((await reader.request.get(emailed ?? "")).status()).toBe(403);
  await visitor.reload();
  await expect(thanks).toHaveText("This payment was refunded or disputed, so its download is no longer available.");
  await expect(link).toBeHidden();
  // The reload opens the same section again, once the dashboard is back.
  await page.reload();
  await expect(page.getByRole("button", { name: "Logout" })).toBeVisible({ timeout: 30_000 });
  await openSection(page, "Revenue");
  await expect(latest.getByRole("row").filter({ hasText: title }).getByRole("cell").nth(4)).toHaveText("refunded");
  // A refunded sale no longer counts.
  await expect(sales).toHaveCount(0);
  await reader.close();
});
