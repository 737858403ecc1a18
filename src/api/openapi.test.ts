import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { apiRoutes } from "./routes.ts";

interface Operation {
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
  "x-scope"?: string;
}
type Document = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** The post form's fields: SPEC §7's, plus the slug and the time to publish at (issue 16), the email subject (issue 40), and the cover's focal point (issue 41). */
const postFormFields = [
  "title",
  "content",
  "excerpt",
  "category",
  "readTime",
  "published",
  "featuredImage",
  "featuredImageAlt",
  "featuredImageDecorative",
  "featuredImageFocus",
  "slug",
  "publishAt",
  "sendAsNewsletter",
  "emailSubject",
  "tags",
];

/** SPEC §7's calls, each with the fields of its payload. */
const specCalls: [method: string, path: string, payload: string[]][] = [
  ["get", "/api/blog-posts", []],
  ["get", "/api/blog-posts/{id}", []],
  ["post", "/api/blog-posts", postFormFields],
  ["put", "/api/blog-posts/{id}", postFormFields],
  ["delete", "/api/blog-posts/{id}", []],
  ["post", "/api/blog-posts/upload-image", ["image"]],
  ["get", "/api/downloads", []],
  ["post", "/api/downloads", ["title", "description", "category", "file", "thumbnail", "thumbnailAlt", "thumbnailDecorative", "price", "currency"]],
  [
    "put",
    "/api/downloads/{id}",
    ["title", "description", "category", "file", "thumbnail", "thumbnailAlt", "thumbnailDecorative", "price", "currency"],
  ],
  ["delete", "/api/downloads/{id}", []],
  ["post", "/api/downloads/{id}/request", ["email"]],
  ["get", "/api/site-settings", []],
  ["put", "/api/site-settings/{key}", ["value"]],
  ["get", "/api/newsletter/subscribers", []],
  ["get", "/api/newsletter/subscribers/export", []],
  ["post", "/api/newsletter/subscribe", ["email"]],
  ["post", "/api/auth/login", ["username", "password"]],
];

/** The dashboard's calls beyond SPEC §7 (issue 14: import, and each person's export and erase; issue 31: sequences; issue 42: tags, subscriber tags, audiences and saved segments). */
const dashboardCalls: typeof specCalls = [
  ["get", "/api/tags", []],
  ["post", "/api/tags", ["name", "slug", "description", "topic"]],
  ["put", "/api/tags/{slug}", ["name", "slug", "description", "topic"]],
  ["delete", "/api/tags/{slug}", []],
  ["post", "/api/newsletter/subscribers/import", ["file", "consent", "welcome", "tags"]],
  ["post", "/api/newsletter/subscribers/tags", ["ids", "filter", "add", "remove"]],
  ["post", "/api/newsletter/audience", ["segment"]],
  ["get", "/api/segments", []],
  ["post", "/api/segments", ["name", "segment"]],
  ["get", "/api/segments/{id}", []],
  ["put", "/api/segments/{id}", ["name", "segment"]],
  ["delete", "/api/segments/{id}", []],
  ["get", "/api/sequences", []],
  ["put", "/api/sequences/{key}", ["enabled", "segment", "steps"]],
  ["get", "/api/sequences/{key}/stats", []],
  ["get", "/api/newsletter/subscribers/{id}/export", []],
  ["delete", "/api/newsletter/subscribers/{id}", []],
];

let app: TestApp;
let document: Document;

beforeAll(async () => {
  app = await createTestApp();
  const response = await app.call("/api/openapi.json");
  expect(response.status).toBe(200);
  document = (await response.json()) as Document;
});
afterAll(async () => {
  await app.close();
});

describe("GET /api/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("covers every SPEC §7 call, and the dashboard's own, with its payload and a described answer", () => {
    for (const [method, route, payload] of [...specCalls, ...dashboardCalls]) {
      const operation = document.paths[route]?.[method];
      expect(operation, `${method} ${route}`).toBeDefined();
      if (!operation) continue;
      const bodySchema = Object.values(operation.requestBody?.content ?? {})[0]?.schema;
      expect(Object.keys(bodySchema?.properties ?? {}).sort(), `${method} ${route} payload`).toEqual([...payload].sort());
      const success = Object.keys(operation.responses).filter((status) => status.startsWith("2"));
      expect(success.length, `${method} ${route} answers`).toBeGreaterThan(0);
      expect(operation.responses["400"] ?? operation.responses["404"] ?? operation.responses["503"]).toBeDefined();
    }
  });

  it("covers every served route, admin ones marked as needing the session or a key with their scope", () => {
    for (const route of apiRoutes) {
      const operation = document.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      if (route.access === "admin") {
        expect(route.scope, `${route.method} ${route.path} declares its scope`).toBeDefined();
        const key = route.scope === "none" ? [] : [{ apiKey: [route.scope] }];
        expect(operation?.security).toEqual([{ session: [] }, ...key]);
        expect(operation?.["x-scope"]).toBe(route.scope);
        expect(operation?.responses["401"]).toBeDefined();
        expect(operation?.responses["403"]).toBeDefined();
      }
    }
  });

  it("offers the bearer scheme an API key is tried with in the reference", () => {
    const schemes = (document as unknown as { components: { securitySchemes: Record<string, unknown> } }).components.securitySchemes;
    expect(schemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
  });
});

describe("the islands", () => {
  it("write no API path by hand: every call goes through the route declarations or apiPaths", async () => {
    const root = path.resolve(import.meta.dirname, "..");
    const offenders: string[] = [];
    for (const folder of ["islands", "components", "pages", "layouts"]) {
      for (const entry of await readdir(path.join(root, folder), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || entry.name.includes(".test.")) continue;
        const file = path.join(entry.parentPath, entry.name);
        const source = await readFile(file, "utf8");
        // The page scripts write their paths out (account-paths.ts says why; page-script-paths.test.ts holds them equal to apiPaths).
        if (
          ["account-paths.ts", "checkout-paths.ts", "comments-paths.ts", "site-script-paths.ts"].some(
            (name) => path.relative(root, file) === path.join("islands", "public", name),
          )
        )
          continue;
        if (/["'`]\/api\//.test(source)) offenders.push(path.relative(root, file));
      }
    }
    expect(offenders).toEqual([]);
  });
});
