import { generateKeyPairSync } from "node:crypto";
import { dkimVerify } from "mailauth";
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

  it("signs with DKIM when given a key: the signature verifies against the published public key", async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).publicKey;
    const record = (key: typeof publicKey) => `v=DKIM1; k=rsa; p=${key.export({ type: "spki", format: "der" }).toString("base64")}`;
    // The DNS a receiver would ask: the TXT record at <selector>._domainkey.<domain>, and nothing else.
    const resolverFor = (key: typeof publicKey) => (name: string, type: string) =>
      name === "mail2026._domainkey.nofilter.test" && type === "TXT"
        ? Promise.resolve([[record(key)]])
        : Promise.reject(Object.assign(new Error(`no ${type} record for ${name}`), { code: "ENOTFOUND" }));
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const mailer = smtpMailer(sink.url, "No Filter <hello@nofilter.test>", {
      dkim: { domainName: "nofilter.test", keySelector: "mail2026", privateKey: pem },
    });
    sink.clear();
    try {
      await mailer.send({
        to: "reader@example.com",
        subject: "Signed",
        html: "<p>Signed, with a line long enough to be folded by quoted-printable encoding somewhere past the seventy-sixth column.</p>",
        text: "Signed",
        headers: { "List-Id": "No Filter <newsletter.nofilter.test>", "Reply-To": "owner@nofilter.test" },
        messageId: "<signed@nofilter.test>",
      });
      const [mail] = await sink.waitFor(1);
      const raw = mail?.raw ?? "";
      expect(mail?.header("DKIM-Signature")).toMatch(/\bd=nofilter\.test; .*\bs=mail2026;/);

      const verified = await dkimVerify(raw, { resolver: resolverFor(publicKey) });
      expect(verified.results.map((result) => [result.signingDomain, result.status.result])).toEqual([["nofilter.test", "pass"]]);
      // The signature covers what a receiver shows and deduplicates on, and the list's identity.
      const signed = /\bh=([^;]+)/
        .exec(mail?.header("DKIM-Signature")?.replace(/\s/g, "") ?? "")?.[1]
        ?.toLowerCase()
        .split(":");
      expect(signed).toEqual(expect.arrayContaining(["from", "reply-to", "subject", "message-id", "list-id"]));
      // Another key does not verify it, nor does a changed body: the check has teeth.
      const wrongKey = await dkimVerify(raw, { resolver: resolverFor(other) });
      expect(wrongKey.results[0]?.status.result).toBe("fail");
      const tampered = await dkimVerify(raw.replace("Signed, with", "Forged, with"), { resolver: resolverFor(publicKey) });
      expect(tampered.results[0]?.status.result).not.toBe("pass");
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
