import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import type { Mailer } from "../../src/core/mail/mailer.ts";
import { answerInbox, emailFrameSandbox, emailHtmlPolicy, inboxJsonPath, inboxPath } from "./inbox.ts";
import { refusedOnceReply, startMailCatcher, type MailCatcher } from "./mail-catcher.ts";

const from = "No Filter <hello@localhost>";
let dir: string;
let catcher: MailCatcher | undefined;
let mailer: Mailer | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "nf-mail-"));
});

afterEach(async () => {
  await mailer?.close();
  await catcher?.close();
  mailer = catcher = undefined;
  await rm(dir, { recursive: true, force: true });
});

async function start(keep?: number): Promise<{ catcher: MailCatcher; mailer: Mailer }> {
  await mailer?.close();
  await catcher?.close();
  catcher = await startMailCatcher({ dir, ...(keep && { keep }) });
  mailer = smtpMailer(catcher.url, from);
  return { catcher, mailer };
}

const get = async (target: MailCatcher | undefined, pathAndQuery: string, method = "GET") => {
  const response = await answerInbox(new URL(pathAndQuery, "http://localhost:8888"), method, target);
  if (!response) throw new Error(`no answer for ${pathAndQuery}`);
  return response;
};

const confirmation = {
  to: "reader@example.com",
  subject: "Confirm your subscription",
  html: '<!doctype html><html lang="en"><head><title>Confirm</title></head><body><p><a href="http://localhost:8888/newsletter/confirm?token=a.b&amp;x=1">Confirm</a></p><p><a href="https://example.com/about">About</a> <a href="https://example.com/about">again</a> <a href="javascript:alert(3)">not a link</a></p></body></html>',
  text: "Confirm: http://localhost:8888/newsletter/confirm?token=a.b&x=1",
  headers: { "List-Unsubscribe": "<http://localhost:8888/unsubscribe?token=t>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" },
  messageId: "<send-1@localhost>",
};
const hostile = {
  to: '"<b>Eve</b>" <eve@example.com>',
  subject: "<script>alert(1)</script> & more",
  html: "<p>Hi<script>alert(2)</script></p>",
  text: "Hi",
};

describe("the mail catcher and the local inbox", () => {
  it("catches what the real mailer sends and lists it newest first", async () => {
    const { catcher, mailer } = await start();
    await mailer.send(confirmation);
    await mailer.send(hostile);

    expect(catcher.list().map((mail) => mail.subject)).toEqual([hostile.subject, confirmation.subject]);
    const list = await get(catcher, inboxPath);
    expect(list.status).toBe(200);
    expect(list.headers.get("content-security-policy")).toContain("default-src 'none'");
    const page = await list.text();
    expect(page.indexOf("&lt;script&gt;alert(1)&lt;/script&gt; &amp; more")).toBeLessThan(page.indexOf("Confirm your subscription"));
    expect(page).not.toContain("<script>");
    expect(page).toContain("reader@example.com");
  });

  it("shows a message with its subject escaped, its HTML in a sandboxed frame, its links, text and headers", async () => {
    const { catcher, mailer } = await start();
    await mailer.send(confirmation);
    await mailer.send(hostile);
    const [newest, oldest] = catcher.list();

    const hostilePage = await (await get(catcher, `${inboxPath}/${newest?.id ?? ""}`)).text();
    expect(hostilePage).toContain("<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; more</h1>");
    expect(hostilePage).toContain("&lt;b&gt;Eve&lt;/b&gt;"); // the display name, as sent
    expect(hostilePage).not.toMatch(/<script|<b>/);

    const page = await (await get(catcher, `${inboxPath}/${oldest?.id ?? ""}`)).text();
    expect(page).toContain(`<iframe title="The email's HTML part" src="${inboxPath}/${oldest?.id ?? ""}/html" sandbox="${emailFrameSandbox}"`);
    expect(emailFrameSandbox).not.toContain("allow-scripts");
    expect(emailFrameSandbox).not.toContain("allow-same-origin");
    expect(page).toContain('<a href="http://localhost:8888/newsletter/confirm?token=a.b&amp;x=1" rel="noreferrer">');
    expect(page).toContain("<pre>Confirm: http://localhost:8888/newsletter/confirm?token=a.b&amp;x=1");
    expect(page).toMatch(/<th scope="row">List-Unsubscribe-Post<\/th>\s*<td>List-Unsubscribe=One-Click<\/td>/);
    expect(page).toMatch(/<th scope="row">Message-ID<\/th>\s*<td>&lt;send-1@localhost&gt;<\/td>/);

    const frame = await get(catcher, `${inboxPath}/${newest?.id ?? ""}/html`);
    expect(frame.headers.get("content-security-policy")).toBe(emailHtmlPolicy);
    expect(emailHtmlPolicy).toMatch(/^default-src 'none'; img-src \* data:; style-src 'unsafe-inline'/);
    // As sent (the policy and the sandbox keep its script from running), plus a base that takes links out of the frame.
    expect(await frame.text()).toBe('<base target="_top"><p>Hi<script>alert(2)</script></p>');
    const confirmationFrame = await (await get(catcher, `${inboxPath}/${oldest?.id ?? ""}/html`)).text();
    expect(confirmationFrame).toContain('<head><base target="_top"><title>Confirm</title>');

    const eml = await get(catcher, `${inboxPath}/${oldest?.id ?? ""}.eml`);
    expect(eml.headers.get("content-type")).toBe("message/rfc822");
    expect(await eml.text()).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
  });

  it("answers JSON, newest first, with headers and the links of the HTML part, filtered by recipient", async () => {
    const { catcher, mailer } = await start();
    await mailer.send(confirmation);
    await mailer.send(hostile);

    const response = await get(catcher, inboxJsonPath);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const messages = (await response.json()) as Record<string, unknown>[];
    expect(messages.map((mail) => mail.subject)).toEqual([hostile.subject, confirmation.subject]);
    expect(messages[1]).toMatchObject({
      to: ["reader@example.com"],
      from: `"No Filter" <hello@localhost>`,
      subject: confirmation.subject,
      messageId: "<send-1@localhost>",
      text: confirmation.text,
      html: confirmation.html,
      links: ["http://localhost:8888/newsletter/confirm?token=a.b&x=1", "https://example.com/about"],
      headers: {
        "list-unsubscribe": "<http://localhost:8888/unsubscribe?token=t>",
        "list-unsubscribe-post": "List-Unsubscribe=One-Click",
        "message-id": "<send-1@localhost>",
      },
    });
    expect(Date.parse(String(messages[1]?.date))).toBeGreaterThan(Date.now() - 60_000);

    const forReader = (await (await get(catcher, `${inboxJsonPath}?to=Reader@Example.com`)).json()) as { subject: string }[];
    expect(forReader.map((mail) => mail.subject)).toEqual([confirmation.subject]);
  });

  it("keeps the mail across a restart, and only the newest `keep` messages", async () => {
    let { catcher, mailer } = await start(2);
    for (const n of [1, 2, 3]) await mailer.send({ ...confirmation, subject: `Message ${String(n)}`, messageId: undefined });
    expect(catcher.list().map((mail) => mail.subject)).toEqual(["Message 3", "Message 2"]);
    expect((await readdir(dir)).filter((name) => name.endsWith(".eml"))).toHaveLength(2);

    ({ catcher, mailer } = await start(2));
    expect(catcher.list().map((mail) => mail.subject)).toEqual(["Message 3", "Message 2"]);
    const [newest] = (await (await get(catcher, inboxJsonPath)).json()) as { text: string; links: string[] }[];
    expect(newest?.links[0]).toBe("http://localhost:8888/newsletter/confirm?token=a.b&x=1");

    // Without its index (a crash mid-write), the .eml files are read again.
    await rm(path.join(dir, "index.json"));
    ({ catcher, mailer } = await start(2));
    expect(catcher.list().map((mail) => mail.subject)).toEqual(["Message 3", "Message 2"]);
  });

  it("takes messages sent at the same time, each once", async () => {
    const { catcher, mailer } = await start();
    await Promise.all(Array.from({ length: 20 }, (_, n) => mailer.send({ ...confirmation, subject: `Parallel ${String(n)}`, messageId: undefined })));
    expect(new Set(catcher.list().map((mail) => mail.subject)).size).toBe(20);
  });

  it("refuses each refuse-once address with 550 5.1.1 the first time, then takes it; other addresses are taken the first time", async () => {
    const { catcher, mailer } = await start();
    const refusing = "Refuse-Once+retry-1@example.com";
    await expect(mailer.send({ ...confirmation, to: refusing, subject: "First try" })).rejects.toMatchObject({
      responseCode: 550,
      response: `550 ${refusedOnceReply}`,
    });
    await mailer.send({ ...confirmation, to: "refuse-once-not@example.com", subject: "Not the pattern" });
    expect(catcher.list().map((mail) => mail.subject)).toEqual(["Not the pattern"]);

    await mailer.send({ ...confirmation, to: refusing.toLowerCase(), subject: "Retried" });
    await expect(mailer.send({ ...confirmation, to: "refuse-once+retry-2@example.com", subject: "Its own first try" })).rejects.toMatchObject({
      responseCode: 550,
    });
    expect(catcher.list().map((mail) => mail.subject)).toEqual(["Retried", "Not the pattern"]);
  });

  it("answers unknown messages, other methods and other paths as it should", async () => {
    const { catcher } = await start();
    expect((await get(catcher, `${inboxPath}/0000-00000000`)).status).toBe(404);
    expect((await get(catcher, `${inboxPath}/0000-00000000/html`)).status).toBe(404);
    expect((await get(catcher, inboxPath, "POST")).status).toBe(405);
    expect(await (await get(catcher, inboxPath)).text()).toContain("No email yet");
    expect(await answerInbox(new URL(`http://localhost${inboxPath}/../../etc/passwd`), "GET", catcher)).toBeUndefined();
    expect(await answerInbox(new URL("http://localhost/.netlify/local/inboxes"), "GET", catcher)).toBeUndefined();
  });

  it("says there is no local inbox when SMTP_URL sends mail out", async () => {
    const response = await get(undefined, inboxPath);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("SMTP_URL is set");
  });
});

describe("the mail catcher's port", () => {
  it("fails to start with the reason when its port is taken", async () => {
    const first = await startMailCatcher({ dir: path.join(dir, "first") });
    try {
      const port = Number(new URL(first.url).port);
      await expect(startMailCatcher({ dir: path.join(dir, "second"), port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await first.close();
    }
  });
});
