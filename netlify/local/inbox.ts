import { html, SafeHtml } from "./inbox-html.ts";
import type { CaughtMail, CaughtMailSummary, MailCatcher } from "./mail-catcher.ts";

/**
 * The local inbox: the mail `npm start`'s catcher received, newest first, each with its HTML (in a
 * sandboxed frame), links, text and headers; plus a JSON view for tests and tools. Local only,
 * never part of the built site (like the API reference).
 */
export const inboxPath = "/.netlify/local/inbox";
export const inboxJsonPath = `${inboxPath}.json`;

/**
 * What the frame may do: no scripts, no forms, no same origin; a click on a link may open a tab
 * (unsandboxed, so the site opens as usual) or take the whole window to it.
 */
export const emailFrameSandbox = "allow-popups allow-popups-to-escape-sandbox allow-top-navigation-by-user-activation";

/** The email's own HTML: nothing may load but images and inline styles. */
export const emailHtmlPolicy = `default-src 'none'; img-src * data:; style-src 'unsafe-inline'; frame-ancestors 'self'; sandbox ${emailFrameSandbox}`;

const pagePolicy =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const messagePath = new RegExp(`^${inboxPath.replaceAll(".", "\\.")}/([0-9a-z]+-[0-9a-f]{8})(/html|\\.eml)?$`);

/**
 * The answer for a path under `inboxPath`, or undefined for any other path. `catcher` is undefined
 * when SMTP_URL sends mail out for real: the pages then say so.
 */
export async function answerInbox(url: URL, method: string, catcher: MailCatcher | undefined): Promise<Response | undefined> {
  const { pathname } = url;
  const isList = pathname === inboxPath || pathname === `${inboxPath}/`;
  const message = messagePath.exec(pathname);
  if (!isList && pathname !== inboxJsonPath && !message) return undefined;
  if (method !== "GET" && method !== "HEAD") return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD" } });
  if (!catcher) return page("No local inbox", notCatching, 404);
  if (isList) return page("Local inbox", listBody(catcher.list()));
  if (pathname === inboxJsonPath) return json(await messagesJson(catcher, url.searchParams.get("to")));

  const [, id = "", view] = message ?? [];
  if (view === ".eml") {
    const raw = await catcher.raw(id);
    if (!raw) return page("Not in the inbox", missing, 404);
    return new Response(new Uint8Array(raw), {
      headers: { "content-type": "message/rfc822", "content-disposition": `attachment; filename="${id}.eml"`, "cache-control": "no-store" },
    });
  }
  const mail = await catcher.read(id);
  if (!mail) return page("Not in the inbox", missing, 404);
  if (view === "/html") return emailHtml(mail);
  return page(mail.subject || "(no subject)", messageBody(mail));
}

const notCatching = html`<h1>No local inbox</h1>
  <p>SMTP_URL is set, so this server sends email through that SMTP server instead of catching it here.</p>`;

const missing = html`<h1>Not in the inbox</h1>
  <p>This message is not (or no longer) in the local inbox. <a href="${inboxPath}">Back to the inbox</a></p>`;

function listBody(summaries: CaughtMailSummary[]): SafeHtml {
  const count = summaries.length === 1 ? "1 message" : `${String(summaries.length)} messages`;
  const rows = summaries.map(
    (summary) =>
      html`<tr>
        <td>${time(summary.date)}</td>
        <td>${summary.to.join(", ")}</td>
        <td><a href="${inboxPath}/${summary.id}">${summary.subject || "(no subject)"}</a></td>
      </tr>`,
  );
  return html`<h1>Local inbox</h1>
    <p>
      Email this <code>npm start</code> sends is caught here, not delivered (set SMTP_URL to send it for real). ${count}, newest first.
      <a href="${inboxPath}">Refresh</a> · <a href="${inboxJsonPath}">JSON</a>
    </p>
    ${
      summaries.length === 0
        ? html`<p>No email yet. Subscribe on the home page and the confirmation email appears here.</p>`
        : html`<table>
            <caption>
              Caught email, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">To</th>
                <th scope="col">Subject</th>
              </tr>
            </thead>
            <tbody>
              ${rows}
            </tbody>
          </table>`
    }`;
}

function messageBody(mail: CaughtMail): SafeHtml {
  const base = `${inboxPath}/${mail.id}`;
  return html`<p><a href="${inboxPath}">← Inbox</a></p>
    <h1>${mail.subject || "(no subject)"}</h1>
    <dl>
      <dt>From</dt>
      <dd>${mail.from}</dd>
      <dt>To</dt>
      <dd>${mail.to.join(", ")}</dd>
      <dt>Received</dt>
      <dd>${time(mail.date)}</dd>
    </dl>
    <h2>HTML</h2>
    ${
      mail.html === undefined
        ? html`<p>This email has no HTML part.</p>`
        : html`<iframe title="The email's HTML part" src="${base}/html" sandbox="${emailFrameSandbox}" referrerpolicy="no-referrer"></iframe>`
    }
    <h2>Links</h2>
    ${
      mail.links.length === 0
        ? html`<p>No links in the HTML part.</p>`
        : html`<ul>
            ${mail.links.map((link) => html`<li><a href="${link}" rel="noreferrer">${link}</a></li>`)}
          </ul>`
    }
    <h2>Text</h2>
    <pre>${mail.text || "(no text part)"}</pre>
    <h2>Headers</h2>
    <table>
      <caption>
        Headers as sent
      </caption>
      <tbody>
        ${mail.headerLines.map(
          (header) =>
            html`<tr>
              <th scope="row">${header.name}</th>
              <td>${header.value}</td>
            </tr>`,
        )}
      </tbody>
    </table>
    <p><a href="${base}.eml">Download the message (.eml)</a></p>`;
}

/**
 * The email's HTML as sent, plus `<base target="_top">` so a plain link leaves the frame for the
 * whole window: the site's pages refuse to be framed (X-Frame-Options: DENY).
 */
function emailHtml(mail: CaughtMail): Response {
  const source = mail.html ?? "";
  const base = '<base target="_top">';
  const head = /<head(\s[^>]*)?>/i.exec(source);
  const body = head ? source.slice(0, head.index + head[0].length) + base + source.slice(head.index + head[0].length) : base + source;
  return new Response(body, {
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": emailHtmlPolicy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    },
  });
}

async function messagesJson(catcher: MailCatcher, to: string | null) {
  const wanted = to?.toLowerCase();
  const summaries = catcher.list().filter((summary) => !wanted || summary.to.some((address) => address.toLowerCase() === wanted));
  const messages = await Promise.all(summaries.map((summary) => catcher.read(summary.id)));
  return messages
    .filter((mail) => mail !== undefined)
    .map(({ headerLines, ...mail }) => ({
      ...mail,
      headers: Object.fromEntries(
        Object.entries(Object.groupBy(headerLines, (header) => header.name.toLowerCase())).map(([name, lines = []]) => [
          name,
          lines.map((line) => line.value).join(", "),
        ]),
      ),
    }));
}

function time(iso: string): SafeHtml {
  return html`<time datetime="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>`;
}

function json(body: unknown): Response {
  return new Response(JSON.stringify(body, null, 2), { headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}

/** A local page (the inbox's, the local WebSub hub's): its own strict policy, never cached, never indexed. */
export function page(title: string, body: SafeHtml, status = 200, of = "No Filter local inbox"): Response {
  const document = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title} · ${of}</title>
        <style>
          ${styles}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html>`;
  return new Response(document.value, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "content-security-policy": pagePolicy,
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    },
  });
}

// A plain string, not an `html` template: CSS is not text to escape.
const styles = new SafeHtml(
  [
    "body { margin: 0; font: 16px/1.5 system-ui, sans-serif; color: #1a1a1a; background: #fff; }",
    "main { max-width: 60rem; margin: 0 auto; padding: 1rem; }",
    "a { color: #0b57d0; }",
    "table { border-collapse: collapse; width: 100%; margin: 1rem 0; }",
    "caption { text-align: left; font-weight: 600; padding-bottom: 0.25rem; }",
    "th, td { border-bottom: 1px solid #d0d0d0; padding: 0.4rem 0.5rem; text-align: left; vertical-align: top; overflow-wrap: anywhere; }",
    "tbody th { font-weight: 600; white-space: nowrap; }",
    "dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.25rem 1rem; }",
    "dt { font-weight: 600; }",
    "dd { margin: 0; overflow-wrap: anywhere; }",
    "iframe { width: 100%; height: 70vh; border: 1px solid #d0d0d0; resize: vertical; }",
    "pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f5f5f5; padding: 0.75rem; }",
  ].join("\n"),
);
