import { generateKeyPairSync } from "node:crypto";
import { dkimVerify } from "mailauth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { requestDownload } from "../core/downloads/downloads.service.ts";
import { startSend } from "../core/newsletter/newsletter-sends.ts";
import { sendTestEmail } from "../core/newsletter/newsletter-test-send.ts";
import { runSendWorker } from "../core/newsletter/newsletter-worker.ts";
import { runDueSequenceSteps } from "../core/sequences/sequences.service.ts";
import { subscribe } from "../core/subscribers/subscribers.service.ts";
import { confirmSubscription } from "../core/subscribers/subscription-lifecycle.ts";

// Every kind of email the app sends, DKIM-signed as in production (DKIM_* set), read back from a
// real SMTP server: each header Gmail and Yahoo read from a bulk sender is in the signature's h=
// (RFC 8058 §4 requires List-Unsubscribe-Post there), and the signature verifies with mailauth.
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const record = `v=DKIM1; k=rsa; p=${publicKey.export({ type: "spki", format: "der" }).toString("base64")}`;
const resolver = (name: string, type: string) =>
  name === "mail2026._domainkey.nofilter.test" && type === "TXT"
    ? Promise.resolve([[record]])
    : Promise.reject(Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" }));

const listHeaders = ["List-Unsubscribe", "List-Unsubscribe-Post", "Feedback-ID", "List-Id", "Auto-Submitted"];

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp({
    clock: createFakeClock(),
    env: {
      DKIM_DOMAIN: "nofilter.test",
      DKIM_SELECTOR: "mail2026",
      DKIM_PRIVATE_KEY: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
    },
  });
}, 300_000);
afterAll(async () => {
  await app.close();
});

const signedNames = (mail: CaughtMail) =>
  (/\bh=([^;]+)/.exec(mail.header("DKIM-Signature")?.replace(/\s/g, "") ?? "")?.[1] ?? "").toLowerCase().split(":");

/** Each kind of email, made the way a reader or the owner makes it. */
async function everyKind(): Promise<Record<string, CaughtMail>> {
  const { deps } = app;
  const reader = "reader@example.com";
  await subscribe(deps, { email: reader, clientIp: "198.19.0.1" });
  await app.deliverMail();
  const confirmation = app.mail.to(reader).find((mail) => mail.subject.startsWith("Confirm")) as CaughtMail;
  const token = new RegExp(`${testOrigin}/api/newsletter/confirm\\?token=([\\w.-]+)`).exec(confirmation.html)?.[1] ?? "";
  expect(await confirmSubscription(deps, token)).toBe("confirmed");
  await runDueSequenceSteps(deps);
  await app.deliverMail();
  const sequenceStep = app.mail.to(reader)[1] as CaughtMail;

  const { rows: downloads } = await deps.db.query<{ id: number }>(
    "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size) VALUES ('Deck', 'A deck', 'Guides', 'deck.pdf', 'x', 'application/pdf', 10) RETURNING id",
  );
  await requestDownload(deps, { id: downloads[0]?.id as number, email: "asker@example.com", clientIp: "198.19.0.2" });
  await app.deliverMail();

  const { rows: posts } = await deps.db.query<{ id: number }>(
    "INSERT INTO posts (title, content, excerpt, published, published_at) VALUES ('Cash flow', '<p>Read it.</p>', 'Short', true, now()) RETURNING id",
  );
  const postId = posts[0]?.id as number;
  const send = await startSend(deps, postId);
  expect(await runSendWorker(deps, send.id)).toMatchObject({ sent: 1 });
  await sendTestEmail(deps, { postId, email: "owner@example.com" });
  await app.deliverMail();

  return {
    confirmation,
    sequence: sequenceStep,
    download: app.mail.to("asker@example.com")[0] as CaughtMail,
    newsletter: app.mail.to(reader).find((mail) => mail.subject === "Cash flow") as CaughtMail,
    "newsletter-test": app.mail.to("owner@example.com")[0] as CaughtMail,
  };
}

describe("DKIM on every kind of email", () => {
  it("signs List-Unsubscribe, List-Unsubscribe-Post, Feedback-ID, List-Id and Auto-Submitted wherever a kind carries them, and verifies", async () => {
    const mails = await everyKind();
    const carried = new Set<string>();
    for (const [kind, mail] of Object.entries(mails)) {
      expect(mail, kind).toBeDefined();
      const present = listHeaders.filter((name) => mail.header(name) !== undefined);
      for (const name of present) carried.add(name);
      expect({ kind, signed: signedNames(mail) }).toEqual({
        kind,
        signed: expect.arrayContaining(present.map((name) => name.toLowerCase())) as unknown,
      });
      const verified = await dkimVerify(mail.raw, { resolver });
      expect({ kind, results: verified.results.map((result) => [result.signingDomain, result.status.result]) }).toEqual({
        kind,
        results: [["nofilter.test", "pass"]],
      });
    }
    // Every header of the five is carried by some kind, so each one's signing was checked.
    expect([...carried].sort()).toEqual([...listHeaders].sort());
    // The newsletter carries all but Auto-Submitted (it is not auto-generated mail).
    expect(signedNames(mails.newsletter as CaughtMail)).toEqual(
      expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post", "feedback-id", "list-id"]),
    );
    // A sequence step is a campaign of its own for Gmail's postmaster tools: its Feedback-ID names
    // the sequence and the step (never a newsletter send), signed like the newsletter's.
    const step = mails.sequence as CaughtMail;
    expect(step.header("Feedback-ID")).toMatch(/^s\d+x\d+:sequence:bulk:localhost$/);
    expect(signedNames(step)).toEqual(expect.arrayContaining(["list-unsubscribe", "list-unsubscribe-post", "feedback-id", "list-id"]));
  });
});
