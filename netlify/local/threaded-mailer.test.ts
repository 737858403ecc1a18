import { generateKeyPairSync } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink, type SmtpSink } from "../../tests/support/smtp-sink.ts";
import { classifyDeliveryFailure } from "../../src/core/newsletter/newsletter-message.ts";
import { threadedSmtpMailer } from "./threaded-mailer.ts";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink({ reject: (address) => (address === "gone@example.com" ? 550 : address === "busy@example.com" ? 450 : undefined) });
});
afterAll(async () => {
  await sink.stop();
});

describe("SMTP on a thread of its own (npm start)", () => {
  it("hands messages to a real SMTP server from the thread, with their headers and Message-IDs", async () => {
    const mailer = threadedSmtpMailer(sink.url, "No Filter <hello@nofilter.test>", { maxConnections: 2 });
    try {
      const sent = await Promise.all(
        ["a", "b", "c"].map((name) =>
          mailer.send({
            to: `${name}@example.com`,
            subject: `Hello ${name}`,
            html: `<p>Hi <strong>${name}</strong></p>`,
            text: `Hi ${name}`,
            headers: { "List-Unsubscribe": `<https://nofilter.test/u/${name}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
            messageId: `<send-1.${name}@nofilter.test>`,
          }),
        ),
      );
      expect(sent.map((info) => info.messageId)).toEqual(["<send-1.a@nofilter.test>", "<send-1.b@nofilter.test>", "<send-1.c@nofilter.test>"]);
      const mail = (await sink.waitFor(3)).find((message) => message.to.includes("b@example.com"));
      expect(mail?.subject).toBe("Hello b");
      expect(mail?.html).toContain("<strong>b</strong>");
      expect(mail?.messageId).toBe("<send-1.b@nofilter.test>");
      expect(mail?.header("List-Unsubscribe")).toBe("<https://nofilter.test/u/b>");
      expect(mail?.raw).toMatch(/^From: No Filter <hello@nofilter\.test>/m);
    } finally {
      await mailer.close();
    }
  });

  it("passes the DKIM key to the thread: what it sends is signed", async () => {
    const privateKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const mailer = threadedSmtpMailer(sink.url, "No Filter <hello@nofilter.test>", {
      dkim: { domainName: "nofilter.test", keySelector: "mail2026", privateKey },
    });
    sink.clear();
    try {
      await mailer.send({ to: "signed@example.com", subject: "Signed", html: "<p>Signed</p>", text: "Signed" });
      const [mail] = await sink.waitFor(1);
      expect(mail?.header("DKIM-Signature")).toMatch(/\bd=nofilter\.test; .*\bs=mail2026;/);
    } finally {
      await mailer.close();
    }
  });

  it("rejects with the server's reply, so a 5xx is permanent and a 4xx transient", async () => {
    const mailer = threadedSmtpMailer(sink.url, "No Filter <hello@nofilter.test>");
    try {
      const refused = (to: string) =>
        mailer.send({ to, subject: "x", html: "x", text: "x" }).then(
          () => undefined,
          (error: unknown) => error,
        );
      const permanent = await refused("gone@example.com");
      expect(permanent).toBeInstanceOf(Error);
      expect(permanent).toMatchObject({ responseCode: 550 });
      expect(classifyDeliveryFailure(permanent)).toMatchObject({ kind: "permanent", reason: expect.stringContaining("550") as string });
      expect(classifyDeliveryFailure(await refused("busy@example.com"))).toMatchObject({ kind: "transient" });
    } finally {
      await mailer.close();
    }
  });

  it("keeps the SMTP step that failed: a 554 to MAIL FROM (an account suspended) is the provider's, not the recipient's", async () => {
    const mailer = threadedSmtpMailer(sink.url, "No Filter <hello@nofilter.test>");
    sink.provider("mail-from-554");
    try {
      const error: unknown = await mailer.send({ to: "a@example.com", subject: "x", html: "x", text: "x" }).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      // Before: the thread dropped `command`, and this 554 failed the recipient for good.
      expect(error).toMatchObject({ responseCode: 554, command: "MAIL FROM" });
      expect(classifyDeliveryFailure(error)).toMatchObject({ kind: "provider", reason: expect.stringContaining("suspended") as string });
    } finally {
      sink.provider(undefined);
      await mailer.close();
    }
  });

  it("rejects when the SMTP server cannot be reached, and refuses to send once closed", async () => {
    const mailer = threadedSmtpMailer("smtp://127.0.0.1:1", "No Filter <hello@nofilter.test>");
    await expect(mailer.send({ to: "a@example.com", subject: "x", html: "x", text: "x" })).rejects.toThrow(/ECONNREFUSED/);
    await mailer.close();
    await expect(mailer.send({ to: "a@example.com", subject: "x", html: "x", text: "x" })).rejects.toThrow(/SMTP thread stopped/);
  });
});
