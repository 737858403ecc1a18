import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpSink, type SmtpSink } from "../../tests/support/smtp-sink.ts";
import { smtpMailer } from "./smtp-mailer.ts";

let sink: SmtpSink;
beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.stop();
});

describe("SMTP mailer", () => {
  it("hands a message to a real SMTP server with both parts, its headers and the Message-ID given", async () => {
    const mailer = smtpMailer(sink.url, "No Filter <hello@nofilter.test>");
    try {
      const { messageId } = await mailer.send({
        to: "reader@example.com",
        subject: "Hello",
        html: "<p>Hi <strong>there</strong></p>",
        text: "Hi there",
        headers: { "List-Unsubscribe": "<https://nofilter.test/u/abc>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
        messageId: "<send-1.sub-2@nofilter.test>",
      });
      expect(messageId).toBe("<send-1.sub-2@nofilter.test>");
      const [mail] = await sink.waitFor(1);
      expect(mail?.to).toEqual(["reader@example.com"]);
      expect(mail?.subject).toBe("Hello");
      expect(mail?.html).toContain("<strong>there</strong>");
      expect(mail?.text.trim()).toBe("Hi there");
      expect(mail?.messageId).toBe("<send-1.sub-2@nofilter.test>");
      expect(mail?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
      expect(mail?.header("List-Unsubscribe")).toBe("<https://nofilter.test/u/abc>");
      expect(mail?.raw).toMatch(/^From: No Filter <hello@nofilter\.test>/m);
    } finally {
      await mailer.close();
    }
  });

  it("rejects when the SMTP server cannot be reached", async () => {
    const mailer = smtpMailer("smtp://127.0.0.1:1", "No Filter <hello@nofilter.test>");
    try {
      await expect(mailer.send({ to: "a@example.com", subject: "x", html: "x", text: "x" })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await mailer.close();
    }
  });
});
