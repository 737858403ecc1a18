import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { createApiHandler, type ApiHandler } from "../api-handler.ts";
import { apiRoutes } from "../routes.ts";

const demoFiles = new URL("../../../netlify/local/demo-content/files/", import.meta.url);
const demoBytes = (name: string) => readFile(new URL(name, demoFiles));
const demoFile = async (name: string, as = name) => new File([await demoBytes(name)], as);

let app: TestApp;
let handler: ApiHandler;
let clock = new Date();
const call = (path: string, init?: RequestInit, ip = "203.0.113.7") => handler(new Request(new URL(path, testOrigin), init), { ip });

beforeAll(async () => {
  app = await createTestApp({ now: () => clock });
  handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), checkAnswers: true });
});
afterAll(async () => {
  await app.close();
});

interface Download {
  id: number;
  title: string;
  description: string;
  category: string;
  fileName: string;
  thumbnailUrl: string | null;
  thumbnailAlt: string | null;
  thumbnailPath?: string | null;
  downloadCount: number;
}

const fields = { title: "Investor Pitch Checklist", description: "Everything to check before you pitch.", category: "Checklists" };

async function upload(method: "POST" | "PUT", path: string, form: FormFields, headers?: Record<string, string>): Promise<Response> {
  const { body, contentType } = await multipartBody(form);
  return call(path, { method, body, headers: { ...(headers ?? (await app.adminHeaders())), "content-type": contentType } });
}

async function createResource(extra: FormFields = {}): Promise<Download> {
  const response = await upload("POST", "/api/downloads", { ...fields, file: await demoFile("investor-pitch-checklist.pdf"), ...extra });
  expect(response.status).toBe(201);
  return (await response.json()) as Download;
}

const requestLink = (id: number | string, email: unknown, ip?: string) =>
  call(
    `/api/downloads/${id}/request`,
    { method: "POST", body: JSON.stringify({ email }), headers: { origin: testOrigin, "content-type": "application/json" } },
    ip,
  );

async function linkFor(id: number, ip = "198.51.100.200"): Promise<string> {
  const response = await requestLink(id, "reader@example.com", ip);
  expect(response.status).toBe(200);
  return ((await response.json()) as { downloadUrl: string }).downloadUrl;
}

async function fileKeys(id: number) {
  const { rows } = await app.deps.db.query<{ file_key: string; thumbnail_key: string | null }>(
    "SELECT file_key, thumbnail_key FROM downloads WHERE id = $1",
    [id],
  );
  return rows[0];
}

const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("GET /api/downloads", () => {
  it("lists resources for visitors without storage keys, and with thumbnailPath for the admin", async () => {
    const created = await createResource({ thumbnail: await demoFile("thumb-investor-pitch-checklist.png"), thumbnailAlt: "Checklist card" });
    const response = await call("/api/downloads");
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as Download[]).find((item) => item.id === created.id);
    expect(listed).toEqual({
      id: created.id,
      ...fields,
      fileName: "investor-pitch-checklist.pdf",
      thumbnailUrl: expect.stringMatching(/^\/api\/files\/images\/[0-9a-f-]{36}_600x400\.png$/) as unknown,
      thumbnailAlt: "Checklist card",
      downloadCount: 0,
      price: 0,
      currency: "usd",
    });
    const admin = await call("/api/downloads", { headers: await app.adminHeaders() });
    const adminItem = ((await admin.json()) as Download[]).find((item) => item.id === created.id);
    expect(adminItem?.thumbnailPath).toBe(listed?.thumbnailUrl);
  });
});

describe("POST /api/downloads", () => {
  it("creates a resource (201 with the entity) and asks for a rebuild", async () => {
    const before = app.rebuilds.count;
    const created = await createResource();
    expect(created).toMatchObject({ ...fields, fileName: "investor-pitch-checklist.pdf", thumbnailUrl: null, downloadCount: 0 });
    expect(app.rebuilds.count).toBe(before + 1);
  });

  it.each([
    [{ title: "" }, "Title is required"],
    [{ title: undefined }, "Title is required"],
    [{ description: " " }, "Description is required"],
    [{ category: "" }, "Category is required"],
  ])("answers 400 for %o", async (change, message) => {
    const response = await upload("POST", "/api/downloads", { ...fields, file: await demoFile("investor-pitch-checklist.pdf"), ...change });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe(message);
  });

  it("requires a file, also when the file input is left empty", async () => {
    for (const file of [undefined, new File([], "")]) {
      const response = await upload("POST", "/api/downloads", { ...fields, file });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toBe("Please select a file to upload.");
    }
  });

  it("answers 415 for spoofed or disallowed files and thumbnails, storing nothing", async () => {
    const html = new File(["<!doctype html><script>alert(1)</script>"], "checklist.pdf");
    const exe = new File([new Uint8Array([0x4d, 0x5a, 0x90, 0x00, 0x03])], "setup.exe");
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'], "thumb.svg", { type: "image/svg+xml" });
    const svgAsPng = new File([await svg.arrayBuffer()], "thumb.png", { type: "image/png" });
    const before = (await (await call("/api/downloads")).json()) as Download[];
    for (const extra of [
      { file: html },
      { file: exe },
      { file: svg },
      { thumbnail: svg, thumbnailAlt: "x" },
      { thumbnail: svgAsPng, thumbnailAlt: "x" },
    ]) {
      const response = await upload("POST", "/api/downloads", { ...fields, file: await demoFile("investor-pitch-checklist.pdf"), ...extra });
      expect(response.status).toBe(415);
    }
    expect(await (await call("/api/downloads")).json()).toEqual(before);
  });

  it("refuses a thumbnail without alt text or the decorative mark (400); decorative stores an empty alt", async () => {
    const thumbnail = await demoFile("thumb-investor-pitch-checklist.png");
    const refused = await upload("POST", "/api/downloads", { ...fields, file: await demoFile("investor-pitch-checklist.pdf"), thumbnail });
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toBe("Describe the thumbnail (alt text), or mark it decorative");
    const decorative = await createResource({ thumbnail, thumbnailDecorative: "true" });
    expect(decorative.thumbnailAlt).toBe("");
    // Described later without a new thumbnail: the words replace the mark.
    const response = await upload("PUT", `/api/downloads/${decorative.id}`, { ...fields, thumbnailAlt: "Checklist card" });
    expect(((await response.json()) as Download).thumbnailAlt).toBe("Checklist card");
  });

  it("answers 413 for a file over 4 MB", async () => {
    const pdf = await demoBytes("investor-pitch-checklist.pdf");
    const justOver = new Uint8Array(4 * 1024 * 1024 + 1);
    justOver.set(pdf);
    for (const size of [justOver.byteLength, 5 * 1024 * 1024]) {
      const big = new File([justOver, new Uint8Array(size - justOver.byteLength)], "big.pdf");
      const response = await upload("POST", "/api/downloads", { ...fields, file: big });
      expect(response.status).toBe(413);
      expect(await errorOf(response)).toMatch(/too large/);
    }
  });

  it("answers 401 without a session and 403 from another site", async () => {
    const form: FormFields = { ...fields, file: await demoFile("investor-pitch-checklist.pdf") };
    expect((await upload("POST", "/api/downloads", form, { origin: testOrigin })).status).toBe(401);
    const crossSite = await upload("POST", "/api/downloads", form, { ...(await app.adminHeaders()), origin: "https://evil.example" });
    expect(crossSite.status).toBe(403);
  });
});

describe("PUT /api/downloads/:id", () => {
  it("updates the text and keeps the current file and thumbnail when none are sent", async () => {
    const created = await createResource({ thumbnail: await demoFile("thumb-investor-pitch-checklist.png"), thumbnailAlt: "Checklist card" });
    const keys = await fileKeys(created.id);
    const before = app.rebuilds.count;
    const response = await upload("PUT", `/api/downloads/${created.id}`, { ...fields, title: "Updated", file: new File([], "") });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: created.id, title: "Updated", fileName: created.fileName, thumbnailUrl: created.thumbnailUrl });
    expect(await fileKeys(created.id)).toEqual(keys);
    expect(app.rebuilds.count).toBe(before + 1);
  });

  it("replaces the file and deletes the old one", async () => {
    const created = await createResource();
    const keys = await fileKeys(created.id);
    const response = await upload("PUT", `/api/downloads/${created.id}`, { ...fields, file: await demoFile("cash-flow-forecast.xlsx") });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Download).fileName).toBe("cash-flow-forecast.xlsx");
    expect(await app.deps.files.get(keys?.file_key ?? "")).toBeNull();
  });

  it("answers 404 for an unknown or malformed id, 401 without a session, 400 for a bad field", async () => {
    for (const id of ["999999", "0", "-1", "abc", "1.5", "99999999999"]) {
      expect((await upload("PUT", `/api/downloads/${id}`, fields)).status).toBe(404);
    }
    const created = await createResource();
    const anonymous = await upload("PUT", `/api/downloads/${created.id}`, fields, { origin: testOrigin });
    expect(anonymous.status).toBe(401);
    const invalid = await upload("PUT", `/api/downloads/${created.id}`, { ...fields, category: "" });
    expect(await errorOf(invalid)).toBe("Category is required");
  });
});

describe("DELETE /api/downloads/:id", () => {
  it("deletes the row and its files (204, empty)", async () => {
    const created = await createResource({ thumbnail: await demoFile("thumb-investor-pitch-checklist.png"), thumbnailAlt: "Checklist card" });
    const keys = await fileKeys(created.id);
    const response = await call(`/api/downloads/${created.id}`, { method: "DELETE", headers: await app.adminHeaders() });
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await fileKeys(created.id)).toBeUndefined();
    expect(await app.deps.files.get(keys?.file_key ?? "")).toBeNull();
    expect(await app.deps.files.get(keys?.thumbnail_key ?? "")).toBeNull();
    expect((await call(`/api/downloads/${created.id}`, { method: "DELETE", headers: await app.adminHeaders() })).status).toBe(404);
  });

  it("answers 401 without a session, 403 cross-site and 404 for a malformed id", async () => {
    const created = await createResource();
    expect((await call(`/api/downloads/${created.id}`, { method: "DELETE", headers: { origin: testOrigin } })).status).toBe(401);
    const crossSite = { ...(await app.adminHeaders()), origin: "https://evil.example" };
    expect((await call(`/api/downloads/${created.id}`, { method: "DELETE", headers: crossSite })).status).toBe(403);
    expect((await call("/api/downloads/x1", { method: "DELETE", headers: await app.adminHeaders() })).status).toBe(404);
    expect(await fileKeys(created.id)).toBeDefined();
  });
});

describe("POST /api/downloads/:id/request and the signed link", () => {
  // Issue 14: a requester is recorded pending (not active) until they confirm the newsletter.
  it("records the subscriber once (any case) as pending, counts the download and returns a signed link", async () => {
    const created = await createResource();
    for (const email of ["Reader.One@Example.com", "  reader.one@example.COM "]) {
      const response = await requestLink(created.id, email, "198.51.100.1");
      expect(response.status).toBe(200);
      const { downloadUrl } = (await response.json()) as { downloadUrl: string };
      expect(downloadUrl).toMatch(new RegExp(`^/api/downloads/${created.id}/file\\?expires=\\d+&signature=[\\w-]{43}$`));
    }
    const { rows } = await app.deps.db.query<{ email: string; source: string; status: string }>(
      "SELECT email, source, status FROM subscribers WHERE lower(email) = 'reader.one@example.com'",
    );
    expect(rows).toEqual([{ email: "reader.one@example.com", source: "download", status: "pending" }]);
    // One email for the two requests: the same resource goes to an address at most once per 10 minutes.
    await app.deliverMail();
    expect(app.mail.to("reader.one@example.com").map((mail) => mail.subject)).toEqual(["Your download: Investor Pitch Checklist"]);
    const listed = ((await (await call("/api/downloads")).json()) as Download[]).find((item) => item.id === created.id);
    expect(listed?.downloadCount).toBe(2);
  });

  it.each([
    [undefined, "Email is required"],
    ["", "Email is required"],
    [42, "Email is required"],
    ["not-an-email", "Please enter a valid email address."],
    [`${"a".repeat(243)}@example.com`, "Please enter a valid email address."],
  ])("answers 400 for email %o", async (email, message) => {
    const created = await createResource();
    const response = await requestLink(created.id, email, "198.51.100.2");
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe(message);
  });

  it("answers 400 for malformed JSON, 404 for an unknown id, 403 cross-site", async () => {
    const created = await createResource();
    const malformed = await call(
      `/api/downloads/${created.id}/request`,
      { method: "POST", body: "{", headers: { origin: testOrigin } },
      "198.51.100.3",
    );
    expect(malformed.status).toBe(400);
    expect((await requestLink(999_999, "a@example.com", "198.51.100.3")).status).toBe(404);
    expect((await requestLink("abc", "a@example.com", "198.51.100.3")).status).toBe(404);
    const crossSite = await call(`/api/downloads/${created.id}/request`, {
      method: "POST",
      body: JSON.stringify({ email: "a@example.com" }),
      headers: { origin: "https://evil.example" },
    });
    expect(crossSite.status).toBe(403);
  });

  it("answers the dialog's form posted without JavaScript with the file, or the failure page when refused", async () => {
    const created = await createResource();
    const post = (body: string) =>
      call(
        `/api/downloads/${created.id}/request`,
        { method: "POST", body, headers: { origin: testOrigin, "content-type": "application/x-www-form-urlencoded" } },
        "198.51.100.9",
      );
    const sent = await post("email=No-JS.Reader%40Example.com");
    expect(sent.status).toBe(303);
    const location = sent.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^/api/downloads/${created.id}/file\\?expires=\\d+&signature=[\\w-]{43}$`));
    const file = await call(location);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; filename="investor-pitch-checklist.pdf"/);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(await demoBytes("investor-pitch-checklist.pdf")));
    const { rows } = await app.deps.db.query("SELECT 1 FROM subscribers WHERE email = 'no-js.reader@example.com'");
    expect(rows).toHaveLength(1);
    for (const refused of [await post("email=nope"), await post("")]) {
      expect(refused.status).toBe(303);
      expect(refused.headers.get("location")).toBe("/download-failed/");
    }
  });

  it("serves the original bytes with safe download headers", async () => {
    const created = await createResource();
    const response = await call(await linkFor(created.id));
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array(await demoBytes("investor-pitch-checklist.pdf")));
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": 'attachment; filename="investor-pitch-checklist.pdf"',
      "content-length": String((await demoBytes("investor-pitch-checklist.pdf")).byteLength),
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "cache-control": "no-store",
    });
  });

  it("encodes a non-ASCII file name for Content-Disposition", async () => {
    const created = await createResource({ file: await demoFile("founder-starter-kit.zip", "Gründer kit (v2).zip") });
    const response = await call(await linkFor(created.id));
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="Gr_nder kit (v2).zip"; filename*=UTF-8''Gr%C3%BCnder%20kit%20%28v2%29.zip`,
    );
  });

  it("answers 403 for forged, altered (other id) and expired links", async () => {
    const created = await createResource();
    const other = await createResource();
    const link = new URL(await linkFor(created.id), testOrigin);
    const forbidden = async (path: string) => {
      const response = await call(path);
      expect(response.status).toBe(403);
      expect(await errorOf(response)).toBe("This download link is invalid or has expired.");
    };
    await forbidden(`/api/downloads/${created.id}/file`);
    await forbidden(`/api/downloads/${created.id}/file?expires=${link.searchParams.get("expires") ?? ""}&signature=${"A".repeat(43)}`);
    await forbidden(`/api/downloads/${other.id}/file${link.search}`);
    const later = new URL(link);
    later.searchParams.set("expires", String(Number(link.searchParams.get("expires")) + 3600));
    await forbidden(`${later.pathname}${later.search}`);
    const saved = clock;
    clock = new Date(saved.getTime() + 24 * 60 * 60 * 1000 + 1000);
    try {
      await forbidden(`${link.pathname}${link.search}`);
    } finally {
      clock = saved;
    }
    expect((await call(`${link.pathname}${link.search}`)).status).toBe(200);
  });

  it("answers 404 when the resource was deleted after the link was given", async () => {
    const created = await createResource();
    const link = await linkFor(created.id);
    await call(`/api/downloads/${created.id}`, { method: "DELETE", headers: await app.adminHeaders() });
    expect((await call(link)).status).toBe(404);
  });

  it("answers 429 with Retry-After after 30 requests from one address in 10 minutes", async () => {
    const created = await createResource();
    for (let i = 0; i < 30; i++) expect((await requestLink(created.id, "busy@example.com", "198.51.100.99")).status).toBe(200);
    const throttled = await requestLink(created.id, "busy@example.com", "198.51.100.99");
    expect(throttled.status).toBe(429);
    expect(Number(throttled.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await requestLink(created.id, "busy@example.com", "198.51.100.100")).status).toBe(200);
  });

  it("counts 50 parallel requests exactly", async () => {
    const created = await createResource();
    const responses = await Promise.all(Array.from({ length: 50 }, (_, i) => requestLink(created.id, `crowd${i}@example.com`, `192.0.2.${i + 1}`)));
    expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 50 }, () => 200));
    const listed = ((await (await call("/api/downloads")).json()) as Download[]).find((item) => item.id === created.id);
    expect(listed?.downloadCount).toBe(50);
  });
});
