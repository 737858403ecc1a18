import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { Validator } from "@seriousme/openapi-schema-validator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { apiRoutes } from "./routes.ts";

interface Operation {
  operationId: string;
  requestBody?: { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema?: { type?: string } }> }>;
  security?: unknown[];
  "x-scope"?: string;
}
type Document = {
  openapi: string;
  servers?: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, { headers?: Record<string, unknown> }> };
};

/**
 * The warnings of Redocly's recommended rules the document keeps, each for a reason (decision 0079).
 * Any other warning, and any error, fails the lint test.
 */
const keptWarnings = [
  // The project states no license (package.json is `private`): naming one is the owner's call, not the document's.
  "info-license /info",
  // The newsletter's click link only ever redirects (302): it has no 2XX answer to declare.
  "operation-2xx-response /paths/~1api~1newsletter~1click/get/responses",
];

/** The post form's fields: SPEC §7's, plus the slug and the time to publish at (issue 16), the email subject (issue 40), the cover's focal point (issue 41), and closing its comments (issue 44). */
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
  "commentsClosed",
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

  it("passes Redocly's recommended rules: no error, and only the warnings kept on purpose", async () => {
    const config = await createConfig({ extends: ["recommended"] });
    const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "openapi.json", config });
    const described = problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer ?? ""}: ${problem.message}`);
    expect(
      described.filter((problem) => problem.startsWith("error")),
      "errors",
    ).toEqual([]);
    const warnings = problems.map((problem) => `${problem.ruleId} ${(problem.location[0]?.pointer ?? "").replace(/^#/, "")}`);
    expect(warnings.sort(), described.join("\n")).toEqual([...keptWarnings].sort());
  });

  it("names the server, and says `security: []` on every public operation", () => {
    expect(document.servers).toEqual([expect.objectContaining({ url: "/" })]);
    for (const route of apiRoutes.filter((candidate) => candidate.access === "public")) {
      const operation = document.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
      expect(operation?.security, `${route.method} ${route.path}`).toEqual([]);
    }
  });

  it("declares 405 with `Allow` on every operation, and every error's media type", () => {
    expect(document.components.responses.MethodNotAllowed?.headers).toHaveProperty("Allow");
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        expect(operation.responses["405"], `${method} ${path}`).toEqual({ $ref: "#/components/responses/MethodNotAllowed" });
        for (const [status, response] of Object.entries(operation.responses)) {
          if (status.startsWith("2") || status.startsWith("3") || response.$ref) continue;
          expect(Object.keys(response.content ?? {}).length, `${method} ${path} ${status} has a media type`).toBe(1);
        }
      }
    }
  });

  it("says which answers are HTML pages and which JSON: an email link's bad token, the passkey login options", () => {
    for (const [path, method] of [
      ["/api/newsletter/confirm", "get"],
      ["/api/newsletter/confirm", "post"],
      ["/api/newsletter/unsubscribe", "get"],
      ["/api/newsletter/unsubscribe", "post"],
      ["/api/newsletter/preferences", "get"],
    ] as const) {
      const responses = document.paths[path]?.[method]?.responses ?? {};
      for (const status of ["200", "403", "404"])
        expect(Object.keys(responses[status]?.content ?? {}), `${method} ${path} ${status}`).toEqual(["text/html"]);
      expect(Object.keys(responses["400"]?.content ?? {}), `${method} ${path} 400`).toEqual(["application/json"]);
    }
    const options = document.paths["/api/auth/passkeys/login/options"]?.post?.responses["200"]?.content;
    expect(options).toEqual({ "application/json": { schema: { type: "object" } } });
    expect(document.paths["/api/downloads/{id}/file"]?.get?.responses["403"]).toBeDefined();
    expect(document.paths["/api/backups/{id}/download"]?.get?.responses["403"]).toBeDefined();
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
          ["account-paths.ts", "checkout-paths.ts", "comment-counts-paths.ts", "comments-paths.ts", "site-script-paths.ts"].some(
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
