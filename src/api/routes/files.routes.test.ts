import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { createApiHandler, type ApiHandler } from "../api-handler.ts";
import { apiRoutes } from "../routes.ts";

let app: TestApp;
let handler: ApiHandler;
let png: Uint8Array<ArrayBuffer>;
const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" });

beforeAll(async () => {
  png = new Uint8Array(await readFile(new URL("../../../netlify/local/demo-content/files/thumb-cold-email-templates.png", import.meta.url)));
  app = await createTestApp();
  handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), checkAnswers: true });
  await app.deps.files.put("images/0b8f3c3e-1111-4222-8333-444455556666.png", png, { contentType: "image/png", fileName: "a.png" });
  await app.deps.files.put("resources/secret.pdf", new Uint8Array([37, 80, 68, 70]), { contentType: "application/pdf" });
});
afterAll(async () => {
  await app.close();
});

describe("GET /api/files/images/:name", () => {
  it("serves a stored image with its type and safe, long-lived caching headers", async () => {
    const response = await call("/api/files/images/0b8f3c3e-1111-4222-8333-444455556666.png");
    expect(response.status).toBe(200);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(png);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
  });

  it("answers 404 JSON for a missing image", async () => {
    const response = await call("/api/files/images/missing.png");
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ error: "File not found" });
  });

  it("never serves anything outside images/", async () => {
    for (const path of [
      "/api/files/resources/secret.pdf",
      "/api/files/images/..%2Fresources%2Fsecret.pdf",
      "/api/files/images/%2E%2E%2Fresources%2Fsecret.pdf",
      "/api/files/images/.hidden",
      "/api/files/images/a%5Cb.png",
    ]) {
      expect((await call(path)).status, path).toBe(404);
    }
  });
});
