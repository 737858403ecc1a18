import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DatabaseUnavailableError } from "../core/errors.ts";
import { createMigratedDatabase } from "../../tests/support/test-databases.ts";
import { connectDatabase } from "./connect-database.ts";
import { isDatabaseUnavailable, withUnavailableErrors } from "./database-unavailable.ts";

/** Where nothing listens: connecting there is refused at once. */
const closedPort = "postgres://postgres@127.0.0.1:1/none";

describe("database unavailability", () => {
  it("turns a refused pg connection into DatabaseUnavailableError, keeping the driver's error", async () => {
    const db = await connectDatabase(closedPort, { driver: "pg" });
    try {
      const error: unknown = await db.query("SELECT 1").catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DatabaseUnavailableError);
      expect((error as DatabaseUnavailableError).status).toBe(503);
      expect((error as DatabaseUnavailableError).retryAfterSeconds).toBe(5);
      expect((error as Error).cause).toMatchObject({ code: "ECONNREFUSED" });
      await expect(db.transaction((tx) => tx.query("SELECT 1"))).rejects.toBeInstanceOf(DatabaseUnavailableError);
    } finally {
      await db.close();
    }
  });

  describe("Neon's HTTP driver", () => {
    let failing: Server;
    let failingUrl: string;
    beforeAll(async () => {
      // Stands in for Neon's endpoint having a bad moment.
      failing = createServer((_req, res) => res.writeHead(503).end("upstream unavailable"));
      await new Promise<void>((resolve) => failing.listen(0, "127.0.0.1", resolve));
      failingUrl = `http://127.0.0.1:${String((failing.address() as { port: number }).port)}/sql`;
    });
    afterAll(async () => {
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    });

    it("names a 5xx answer from the endpoint", async () => {
      const db = await connectDatabase("postgres://postgres@ep-test.neon.tech/none", { neonHttpEndpoint: failingUrl });
      try {
        const error: unknown = await db.query("SELECT 1").catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as Error).cause).toMatchObject({ name: "NeonDbError", message: expect.stringMatching(/HTTP status 503/) as unknown });
      } finally {
        await db.close();
      }
    });

    it("names a WebSocket that could not connect (the pool behind transactions)", async () => {
      const db = await connectDatabase("postgres://postgres@ep-test.neon.tech/none", { neonWsProxy: "127.0.0.1:1/v2" });
      try {
        const error: unknown = await db.transaction((tx) => tx.query("SELECT 1")).catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as Error).cause).toBeInstanceOf(Event);
      } finally {
        await db.close().catch(() => undefined);
      }
    });

    it("names a fetch that could not connect", async () => {
      const db = await connectDatabase("postgres://postgres@ep-test.neon.tech/none", { neonHttpEndpoint: "http://127.0.0.1:1/sql" });
      try {
        const error: unknown = await db.query("SELECT 1").catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(DatabaseUnavailableError);
        expect((error as Error).cause).toMatchObject({ name: "NeonDbError" });
      } finally {
        await db.close();
      }
    });
  });

  it("passes every other error on unchanged", async () => {
    const db = withUnavailableErrors(await createMigratedDatabase());
    try {
      const error: unknown = await db.query("SELECT * FROM nowhere").catch((caught: unknown) => caught);
      expect(error).not.toBeInstanceOf(DatabaseUnavailableError);
      expect(isDatabaseUnavailable(error)).toBe(false);
      const mistake = new Error("not a database problem");
      await expect(db.transaction(() => Promise.reject(mistake))).rejects.toBe(mistake);
    } finally {
      await db.close();
    }
  });

  it("knows Postgres' try-later codes and a dropped connection", () => {
    for (const code of ["57P01", "57P03", "53300", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "ECONNRESET"]) {
      expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code }))).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })]))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
  });

  it("knows a timeout: the server's statement_timeout, pg's own, and a fetch aborted by its signal", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("canceling statement due to statement timeout"), { code: "57014" }))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Query read timeout"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated due to connection timeout"))).toBe(true);
    expect(isDatabaseUnavailable(new DOMException("The operation was aborted due to timeout", "TimeoutError"))).toBe(true);
  });
});
