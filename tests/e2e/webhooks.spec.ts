import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver.ts";
import { logIn } from "./admin.ts";
import { hydrated, toast } from "./islands.ts";
import { inboxFor } from "./local-inbox.ts";

let receiver: WebhookReceiver;
test.beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
test.afterAll(async () => {
  await receiver.close();
});

const ofType = (type: string) => receiver.received.filter((hook) => (JSON.parse(hook.body) as { type: string }).type === type);
async function waitForType(type: string, count = 1) {
  await expect.poll(() => ofType(type).length, { timeout: 30_000 }).toBeGreaterThanOrEqual(count);
  return ofType(type);
}

test("the owner adds an endpoint in the dashboard; a signup on the site arrives signed; a failed delivery is sent again from the log", async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await logIn(page);
  await page.getByRole("tab", { name: "Integrations" }).click();
  const form = page.getByRole("form", { name: "Add an endpoint" });
  await form.getByLabel("Endpoint URL").fill(receiver.url);
  await form.getByLabel("subscriber.created").check();
  await form.getByLabel("subscriber.confirmed").check();
  await form.getByRole("button", { name: "Add Endpoint" }).click();
  await expect(toast(page, "Endpoint Added")).toBeVisible();
  const secret = (await page.getByTestId("webhook-secret").textContent()) ?? "";
  expect(secret).toMatch(/^whsec_/);

  // A visitor signs up on the home page, then confirms from the local inbox.
  const email = `hooked-${String(Date.now())}@example.com`;
  const visitor = await page.context().newPage();
  await visitor.goto("/");
  const signup = (await hydrated(visitor, "NewsletterForm")).locator("form");
  await signup.getByLabel("Email address").fill(email);
  await signup.getByRole("button", { name: "Subscribe" }).click();
  await expect(toast(visitor, "Subscribed!")).toBeVisible({ timeout: 15_000 });
  const [created] = (await waitForType("subscriber.created")).filter((hook) => hook.body.includes(email));
  expect(new Webhook(secret).verify(created?.body ?? "", created?.headers as Record<string, string>)).toMatchObject({
    type: "subscriber.created",
    data: { email, status: "pending" },
  });
  const [confirmation] = await inboxFor(request, email, 1);
  await visitor.goto(confirmation?.links.find((link) => link.includes("/api/newsletter/confirm")) ?? "");
  await visitor.getByRole("button", { name: "Confirm subscription" }).click();
  const [confirmed] = (await waitForType("subscriber.confirmed")).filter((hook) => hook.body.includes(email));
  expect(new Webhook(secret).verify(confirmed?.body ?? "", confirmed?.headers as Record<string, string>)).toMatchObject({
    type: "subscriber.confirmed",
    data: { email, status: "active" },
  });

  await visitor.close();
  await page.bringToFront();

  // The endpoint refuses a test event (a final 4xx); once it is fixed, the owner sends it again from the log.
  receiver.answer = { status: 400, body: "bad request" };
  const endpoint = page.getByRole("listitem", { name: receiver.url });
  await endpoint.getByRole("button", { name: "Send Test Event" }).click();
  const [failedTry] = await waitForType("webhook.test");
  const log = endpoint.getByRole("region", { name: "Delivery log" });
  await expect(log.getByRole("listitem", { name: "webhook.test failed" })).toBeVisible({ timeout: 30_000 });
  await expect(log.getByText("HTTP 400")).toBeVisible();
  receiver.answer = { status: 200, body: "thanks" };
  await log.getByRole("listitem", { name: "webhook.test failed" }).getByRole("button", { name: "Send Again" }).click();
  await expect(toast(page, "Sent Again")).toBeVisible();
  const tests = await waitForType("webhook.test", 2);
  expect(tests[1]?.headers["webhook-id"]).toBe(failedTry?.headers["webhook-id"]);
  await expect(async () => {
    await endpoint.getByRole("checkbox", { name: "Failed only" }).uncheck();
    await page.getByRole("tab", { name: "Integrations" }).click();
    await expect(log.getByRole("listitem", { name: "webhook.test sent" })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 30_000 });
});
