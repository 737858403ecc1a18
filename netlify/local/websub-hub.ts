import { localWebsubHubPath } from "../../src/core/publishing/websub.ts";
import { page } from "./inbox.ts";
import { html, type SafeHtml } from "./inbox-html.ts";

/**
 * The local WebSub hub: the hub `npm start`'s feeds and pages name (`rel="hub"`) when the
 * `websub_hub` setting is empty, so a publish can be seen to ping it. It takes publisher pings
 * (`POST` form-encoded `hub.mode=publish`, one `hub.url` per changed feed, answered 204), keeps the
 * last 500 in memory, and lists them newest first on a page — as the local inbox shows mail — and
 * as JSON for tests. It records; it does not fan out to subscribers. Local only, never built.
 */
export const websubHubPath = localWebsubHubPath;
export const websubHubJsonPath = `${websubHubPath}.json`;

/** One ping the hub got. */
export interface LocalHubPing {
  receivedAt: string;
  mode: string;
  urls: string[];
  userAgent: string;
}

export interface LocalHub {
  /** Newest first. */
  pings(): LocalHubPing[];
  /** The answer for a path under `websubHubPath`, or undefined for any other path. */
  answer(pathname: string, method: string, request: () => Request): Promise<Response | undefined>;
}

const kept = 500;
/** A ping is a short form: more than this is not one. */
const maxBodyBytes = 64 * 1024;

export function createLocalHub(options: { now?: () => Date } = {}): LocalHub {
  const now = options.now ?? (() => new Date());
  const pings: LocalHubPing[] = [];
  const hub: LocalHub = {
    pings: () => [...pings],
    async answer(pathname, method, request) {
      const isHub = pathname === websubHubPath || pathname === `${websubHubPath}/`;
      if (!isHub && pathname !== websubHubJsonPath) return undefined;
      if (isHub && method === "POST") return receive(request());
      if (method !== "GET" && method !== "HEAD") {
        return new Response("Method not allowed", { status: 405, headers: { allow: isHub ? "GET, HEAD, POST" : "GET, HEAD" } });
      }
      if (pathname === websubHubJsonPath) {
        return new Response(JSON.stringify(pings, null, 2), {
          headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
        });
      }
      return page("Local WebSub hub", listBody(pings), 200, "No Filter local WebSub hub");
    },
  };

  async function receive(request: Request): Promise<Response> {
    const type = request.headers.get("content-type") ?? "";
    if (!type.startsWith("application/x-www-form-urlencoded")) return refuse("A ping is a form: application/x-www-form-urlencoded.");
    const text = await request.text();
    if (Buffer.byteLength(text) > maxBodyBytes) return refuse("A ping is a short form.");
    const form = new URLSearchParams(text);
    const mode = form.get("hub.mode") ?? "";
    // Subscribers are not served: this hub only shows what the site told it.
    if (mode !== "publish") return refuse("This local hub records publisher pings only (hub.mode=publish).");
    const urls = form.getAll("hub.url").filter((url) => URL.canParse(url));
    if (urls.length === 0) return refuse("A ping names at least one feed (hub.url).");
    pings.unshift({ receivedAt: now().toISOString(), mode, urls, userAgent: request.headers.get("user-agent") ?? "" });
    pings.length = Math.min(pings.length, kept);
    return new Response(null, { status: 204 });
  }
  return hub;
}

function refuse(message: string): Response {
  return new Response(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function listBody(pings: LocalHubPing[]): SafeHtml {
  const count = pings.length === 1 ? "1 ping" : `${String(pings.length)} pings`;
  return html`<h1>Local WebSub hub</h1>
    <p>
      The feeds and pages of this <code>npm start</code> name this hub (<code>rel="hub"</code>); after a post is published, updated, goes live on its
      schedule or is unpublished, the site pings it here once the rebuilt page shows the change (set the WebSub hub in Site Settings to use another).
      ${count}, newest first. <a href="${websubHubPath}">Refresh</a> · <a href="${websubHubJsonPath}">JSON</a>
    </p>
    ${
      pings.length === 0
        ? html`<p>No ping yet. Publish a post and its ping appears here once the site is rebuilt.</p>`
        : html`<table>
            <caption>
              Pings received, newest first
            </caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Feeds changed</th>
              </tr>
            </thead>
            <tbody>
              ${pings.map(
                (ping) =>
                  html`<tr>
                    <td><time datetime="${ping.receivedAt}">${ping.receivedAt.slice(0, 19).replace("T", " ")} UTC</time></td>
                    <td>
                      <ul>
                        ${ping.urls.map((url) => html`<li><a href="${url}">${url}</a></li>`)}
                      </ul>
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>`
    }`;
}
