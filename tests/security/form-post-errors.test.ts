import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { createPgliteExecutor } from "../../src/adapters/pglite-executor.ts";
import { createApiHandler, failurePage } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import type { SqlExecutor } from "../../src/core/db/sql-executor.ts";
import { createTestApp, testOrigin, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/** The newsletter form as a browser posts it without JavaScript, through the app over `db`. */
async function postForm(db: SqlExecutor, origin = testOrigin): Promise<Response> {
  const handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve({ ...app.deps, db }) });
  return handler(
    new Request(new URL("/api/newsletter/subscribe", testOrigin), {
      method: "POST",
      headers: { origin, "content-type": "application/x-www-form-urlencoded" },
      body: "email=reader%40example.com",
    }),
    { ip: "192.0.2.90" },
  );
}

describe("issue 26 finding 9: a form posted without JavaScript always lands on a page", () => {
  it("sends a cross-site post (403) to the failure page, not to JSON", async () => {
    const response = await postForm(app.deps.db, "https://attacker.example");
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/subscribe-failed/");
  });

  it("sends our own failure (500) to the failure page, and still logs it", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    // A real database without its tables: every query fails as a bug of ours would.
    const bare = await createPgliteExecutor();
    try {
      const response = await postForm(bare);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/subscribe-failed/");
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/failed/);
    } finally {
      logged.mockRestore();
      await bare.close();
    }
  });

  it("sends an unreachable database (503) to the 'try again in a minute' page", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const away = await connectDatabase("postgres://postgres@127.0.0.1:1/none", { driver: "pg" });
    try {
      const response = await postForm(away);
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/subscribe-failed/try-later/");
      expect(String(logged.mock.calls[0]?.[0])).toMatch(/database unavailable/);
    } finally {
      logged.mockRestore();
      await away.close();
    }
  });

  it("has a page for every place a form can land", () => {
    const forms = apiRoutes.flatMap((route) => (route.body?.form ? [route.body.form.failure] : []));
    expect(forms.length).toBeGreaterThan(1);
    for (const failure of forms) {
      for (const path of [failure, failurePage(failure, 503)]) {
        const page = new URL(`../../src/pages${path.replace(/\/$/, "")}.astro`, import.meta.url);
        expect(existsSync(page), path).toBe(true);
      }
    }
  });
});
