import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../tests/support/test-app.ts";
import { apiRoutes } from "./routes.ts";

/**
 * Every path and query parameter of every route, given numbers past what a column holds (an
 * `integer` ends at 2,147,483,647) and other numbers no id is: a refusal (400 for a query, 404 for a
 * path), never a 500 from the database. The loop reads the route table, so a route added later is
 * checked without a change here.
 */
const numbers = ["2147483648", "9999999999", "99999999999999999999", "0", "-1", "1.5", "1e3"];

let app: TestApp;
let admin: Record<string, string>;
beforeAll(async () => {
  app = await createTestApp();
  admin = await app.adminHeaders();
}, 180_000);
afterAll(async () => {
  await app.close();
});

const pathOf = (template: string, values: Record<string, string>) => template.replace(/:(\w+)/g, (_, name: string) => values[name] ?? "1");

describe("numbers past a column's range", () => {
  it("answers GET /api/newsletter/sends?postId=2147483648 with 400", async () => {
    const answer = await app.call("/api/newsletter/sends?postId=2147483648", { headers: admin });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({ error: "postId must be a post's id" });
    // And in a JSON body.
    const body = await app.call("/api/newsletter/sends", {
      method: "POST",
      headers: { ...admin, "content-type": "application/json" },
      body: JSON.stringify({ postId: 2147483648 }),
    });
    expect(body.status).toBe(400);
  });

  it("refuses them on every route's path and query parameters, never with a 500", async () => {
    const errors: string[] = [];
    let checked = 0;
    for (const route of apiRoutes) {
      const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? "");
      const queryNames = Object.keys((route.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {});
      const tries = [
        ...pathNames.flatMap((name) => numbers.map((value) => ({ path: pathOf(route.path, { [name]: value }), where: "path" as const }))),
        ...queryNames.flatMap((name) =>
          numbers.map((value) => ({
            path: `${pathOf(route.path, {})}?${new URLSearchParams({ [name]: value }).toString()}`,
            where: "query" as const,
          })),
        ),
      ];
      for (const attempt of tries) {
        const answer = await app.call(attempt.path, {
          method: route.method,
          headers: { ...admin, "content-type": "application/json" },
          ...(route.method !== "GET" && { body: "{}" }),
        });
        checked += 1;
        if (answer.status >= 500) errors.push(`${route.method} ${attempt.path}: ${String(answer.status)} ${await answer.text()}`);
      }
    }
    expect(errors).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  }, 180_000);
});
