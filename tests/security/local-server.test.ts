import { fileURLToPath } from "node:url";
import { chmod, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { request, type IncomingMessage, type Server } from "node:http";
import { connect, type AddressInfo } from "node:net";
import { networkInterfaces, tmpdir } from "node:os";
import path from "node:path";
import { NetlifyDev } from "@netlify/dev";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { blobsFileStore } from "../../src/adapters/blobs-file-store.ts";
import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";
import { inboxJsonPath } from "../../netlify/local/inbox.ts";
import { startLocalBlobs } from "../../netlify/local/local-blobs.ts";
import { adminLoginLine, readLocalEnv } from "../../netlify/local/local-env.ts";
import { localHostCheck } from "../../netlify/local/local-hosts.ts";
import { loadLocalSecrets, writePrivateFile } from "../../netlify/local/local-secrets.ts";
import { readSiteHeaders } from "../../netlify/local/site-headers.ts";
import { createLocalServer, type LocalSite } from "../../netlify/local/local-server.ts";
import { startMailCatcher, type MailCatcher } from "../../netlify/local/mail-catcher.ts";

const secrets = { ADMIN_PASSWORD: "generated-password", ADMIN_PATH: "admin-abcdefgh", SESSION_SECRET: "s".repeat(40) };
const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});
const scratch = async () => {
  const folder = await mkdtemp(path.join(tmpdir(), "nf-local-"));
  folders.push(folder);
  return folder;
};
const modeOf = async (file: string) => (await stat(file)).mode & 0o777;

describe("finding 7: npm start keeps to this machine and to its owner", () => {
  it("listens on 127.0.0.1 unless HOST opens it", () => {
    expect(readLocalEnv({}, secrets).HOST).toBe("127.0.0.1");
    expect(readLocalEnv({ HOST: "0.0.0.0" }, secrets).HOST).toBe("0.0.0.0");
  });

  it("prints the admin password only when it was generated, never one the owner supplied", () => {
    const generated = readLocalEnv({}, secrets);
    expect(adminLoginLine(generated, {})).toBe("admin / generated-password (generated, kept in .netlify/local-secrets.json)");
    // LOCAL_STATE_DIR moved the secrets: the line names where they are.
    expect(adminLoginLine(generated, {}, "/srv/site/.netlify/local-secrets.json")).toBe(
      "admin / generated-password (generated, kept in /srv/site/.netlify/local-secrets.json)",
    );
    const supplied = readLocalEnv({ ADMIN_PASSWORD: "my own long password" }, secrets);
    const line = adminLoginLine(supplied, { ADMIN_PASSWORD: "my own long password" });
    expect(line).toBe("admin / (the ADMIN_PASSWORD you set)");
    expect(line).not.toContain("my own long password");
    expect(adminLoginLine(readLocalEnv({ ADMIN_PASSWORD_HASH: `scrypt$16384$8$1$${"a".repeat(22)}$${"b".repeat(43)}` }, secrets), {})).toBe(
      "admin / (from ADMIN_PASSWORD_HASH)",
    );
  });

  it("keeps the secrets file and local-server.json readable by the owner only, even one made before", async () => {
    const stateDir = await scratch();
    await loadLocalSecrets(stateDir);
    expect(await modeOf(path.join(stateDir, "local-secrets.json"))).toBe(0o600);
    await chmod(path.join(stateDir, "local-secrets.json"), 0o644);
    await loadLocalSecrets(stateDir);
    expect(await modeOf(path.join(stateDir, "local-secrets.json"))).toBe(0o600);

    const info = path.join(stateDir, "local-server.json");
    await writeFile(info, "{}", { mode: 0o644 });
    await writePrivateFile(info, '{ "siteUrl": "http://localhost:8888" }');
    expect(await modeOf(info)).toBe(0o600);
  });
});

describe("finding 6: npm start answers only to this machine, serves no rule file, and keeps Blobs on loopback", () => {
  const token = "tok3n-from-the-confirmation-email";
  let server: Server;
  let port: number;
  let catcher: MailCatcher;
  let netlifyDev: NetlifyDev;
  // Kept for the whole block (the afterEach above empties `folders` after every test).
  let root: string;

  beforeAll(async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-local-site-"));
    const publishDir = path.join(root, "dist");
    await mkdir(publishDir);
    await writeFile(path.join(root, "netlify.toml"), '[build]\n  publish = "dist"\n');
    await writeFile(path.join(publishDir, "index.html"), "<!doctype html><title>Home</title><h1>Home</h1>");
    await writeFile(path.join(publishDir, "_headers"), "/old-admin-path\n  X-Robots-Tag: noindex\n");
    await writeFile(path.join(publishDir, "_redirects"), "/blog/1 /blog/first-post/ 301\n");
    netlifyDev = new NetlifyDev({
      projectRoot: root,
      aiGateway: { enabled: false },
      blobs: { enabled: false },
      database: { enabled: false },
      edgeFunctions: { enabled: false },
      environmentVariables: { enabled: false },
      functions: { enabled: false },
      geolocation: { enabled: false },
      images: { enabled: false },
      serverAddress: null,
    });
    await netlifyDev.start();

    catcher = await startMailCatcher({ dir: path.join(root, "mail") });
    const confirmUrl = `http://localhost:8888/newsletter/confirm?token=${token}`;
    const mailer = smtpMailer(catcher.url, "No Filter <hello@localhost>");
    await mailer.send({ to: "reader@example.com", subject: "Confirm", html: `<a href="${confirmUrl}">Confirm</a>`, text: confirmUrl });
    await mailer.close();

    const site: LocalSite = {
      api: () => Promise.resolve(Response.json({ status: "ok" })),
      netlifyDev,
      publishDir,
      siteHeaders: await readSiteHeaders(fileURLToPath(new URL("../../netlify.toml", import.meta.url))),
      notFoundRules: [],
      buildHookPath: "/.netlify/local/build-hook/test",
      onBuildHook: () => undefined,
      mailCatcher: catcher,
    };
    server = createLocalServer(() => site, { siteUrl: "http://my-box.lan:8888" });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await catcher.close();
    await netlifyDev.stop();
    await rm(root, { recursive: true, force: true });
  });

  /** A request to the server on 127.0.0.1 with the Host (and Origin) a browser would send for `host`. */
  const get = (pathname: string, host: string | undefined, origin?: string) =>
    new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
      const req = request({ host: "127.0.0.1", port, path: pathname, setHost: false, headers: { ...(host && { host }), ...(origin && { origin }) } });
      req.on("response", (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, type: res.headers["content-type"] ?? "" }));
      });
      req.on("error", reject);
      req.end();
    });

  it("refuses a rebound name even when its Origin matches: the inbox and its tokens stay unread", async () => {
    const forged = `rebind.attacker.example:${String(port)}`;
    const inbox = await get(inboxJsonPath, forged, `http://${forged}`);
    expect(inbox.status).toBe(421);
    expect(inbox.type).toContain("text/plain");
    expect(inbox.body).toContain("set SITE_URL");
    expect(inbox.body).not.toContain(token);

    const api = await get("/api/health", forged, `http://${forged}`);
    expect(api.status).toBe(421);
    expect((JSON.parse(api.body) as { error: string }).error).toContain("SITE_URL");

    for (const host of [`evil.example@localhost:${String(port)}`, "localhost.evil.example", "127.0.0.1.nip.io", "localhost:80/x"]) {
      expect((await get(inboxJsonPath, host)).status, host).toBe(421);
    }
    // An empty or missing Host: Node refuses it before this server sees it.
    for (const host of ["", undefined]) expect((await get(inboxJsonPath, host)).status).toBe(400);
  });

  it("answers localhost, 127.0.0.1, [::1] and SITE_URL's host, on any port", async () => {
    for (const host of [`localhost:${String(port)}`, "LOCALHOST", `127.0.0.1:${String(port)}`, `[::1]:${String(port)}`, "my-box.lan:3000"]) {
      const inbox = await get(inboxJsonPath, host, `http://${host}`);
      expect(inbox.status, host).toBe(200);
      expect(inbox.body, host).toContain(token);
    }
  });

  it("answers an IP address only when the connection arrived at it (HOST=0.0.0.0, where the Image CDN's emulation fetches back)", () => {
    const isLocal = localHostCheck("http://localhost:8888");
    const arriving = (host: string, localAddress: string) => ({ headers: { host }, socket: { localAddress } }) as unknown as IncomingMessage;
    expect(isLocal(arriving("192.168.1.20:8888", "192.168.1.20"))).toBe(true);
    expect(isLocal(arriving("[::ffff:192.168.1.20]:8888", "::ffff:192.168.1.20"))).toBe(true);
    expect(isLocal(arriving("192.168.1.21:8888", "192.168.1.20"))).toBe(false);
    expect(isLocal(arriving("my-box.lan:8888", "192.168.1.20"))).toBe(false);
  });

  it("answers /_headers and /_redirects with 404, however the path is spelled, which the emulation alone serves", async () => {
    // Without the local server's rule, the static emulation sends the file as it is.
    expect((await netlifyDev.handle(new Request("http://localhost/_headers")))?.status).toBe(200);
    for (const pathname of ["/_headers", "/_redirects", "//_headers", "/_redirects/", "/%5Fheaders", "/_Headers"]) {
      const answer = await get(pathname, `localhost:${String(port)}`);
      expect(answer.status, pathname).toBe(404);
      expect(answer.body, pathname).not.toContain("old-admin-path");
      expect(answer.body, pathname).not.toContain("first-post");
    }
    expect((await get("/", `localhost:${String(port)}`)).body).toContain("<h1>Home</h1>");
  });

  it("answers TRACE (a method Netlify refuses) with 405, and its plain 404 with the site's security headers (issue 43 point 7)", async () => {
    const send = (method: string, pathname: string) =>
      new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
        const req = request({ host: "127.0.0.1", port, path: pathname, method, headers: { host: `localhost:${String(port)}` } });
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers }));
        });
        req.on("error", reject);
        req.end();
      });
    const traced = await send("TRACE", "/");
    expect(traced.status).toBe(405);
    expect(traced.headers.allow).toBe("GET, HEAD");
    const missing = await send("GET", "/no-such-page");
    expect(missing.status).toBe(404);
    for (const answer of [traced, missing]) {
      expect(answer.headers["content-security-policy"]).toMatch(/^default-src 'self'/);
      expect(answer.headers["x-frame-options"]).toBe("DENY");
      expect(answer.headers["x-content-type-options"]).toBe("nosniff");
      expect(answer.headers["permissions-policy"]).toBe("camera=(), microphone=(), geolocation=()");
    }
    expect((await send("GET", "/")).status).toBe(200);
  });

  it("runs Blobs on 127.0.0.1 only, behind a long random token, and stores through it", async () => {
    const stateDir = await scratch();
    const before = process.env.NETLIFY_BLOBS_CONTEXT;
    const blobs = await startLocalBlobs(stateDir);
    try {
      const address = blobs.server.address() as AddressInfo;
      expect(address.address).toBe("127.0.0.1");
      const context = JSON.parse(Buffer.from(process.env.NETLIFY_BLOBS_CONTEXT ?? "", "base64").toString()) as { edgeURL: string; token: string };
      expect(context.edgeURL).toBe(blobs.url);
      expect(context.token).toMatch(/^[\w-]{43}$/);

      const files = blobsFileStore();
      await files.put("probe.txt", new TextEncoder().encode("kept"), { contentType: "text/plain" });
      expect(new TextDecoder().decode((await files.get("probe.txt"))?.data)).toBe("kept");
      expect((await fetch(`${blobs.url}/api/v1/blobs/0/files/probe.txt`)).status).toBe(403);

      // Nothing answers on this machine's other addresses (none on a machine with loopback only).
      for (const other of externalAddresses()) {
        await expect(connects(other, address.port), other).resolves.toBe(false);
      }
    } finally {
      await blobs.close();
      if (before === undefined) delete process.env.NETLIFY_BLOBS_CONTEXT;
      else process.env.NETLIFY_BLOBS_CONTEXT = before;
    }
  });
});

function externalAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flatMap((entries) => entries ?? [])
    .filter((entry) => !entry.internal && entry.family === "IPv4")
    .map((entry) => entry.address);
}

function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
