import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { connectDatabase } from "../../src/adapters/connect-database.ts";
import { createApiHandler } from "../../src/api/api-handler.ts";
import { apiRoutes } from "../../src/api/routes.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
let failing: Server;
let failingUrl: string;
beforeAll(async () => {
  app = await createTestApp();
  // Stands in for Neon's HTTP endpoint having a bad moment.
  failing = createServer((_req, res) => res.writeHead(502).end("bad gateway"));
  await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
  failingUrl = `http://127.0.0.1:${String((failing.address() as { port: number }).port)}/sql`;
});
afterAll(async () => {
  await app.close();
  await new Promise<void>((resolve) => failing.close(() => resolve()));
});

describe("finding 6: Neon's HTTP driver failing is unavailability", () => {
  it("answers 503 with Retry-After, not 500, for an HTTP 5xx or a fetch that could not connect", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    for (const endpoint of [failingUrl, "http://127.0.0.1:1/sql"]) {
      const db = await connectDatabase("postgres://postgres@ep-test.neon.tech/none", { neonHttpEndpoint: endpoint });
      try {
        const handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve({ ...app.deps, db }) });
        const response = await handler(new Request("http://localhost/api/site-settings"), { ip: "127.0.0.1" });
        expect(response.status, endpoint).toBe(503);
        expect(response.headers.get("retry-after")).toBe("5");
      } finally {
        await db.close();
      }
    }
    expect(logged).toHaveBeenCalledTimes(2);
    expect(String(logged.mock.calls[0]?.[0])).toMatch(/database unavailable/);
  });
});
