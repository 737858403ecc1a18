import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../tests/support/test-databases.ts";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { adminCredentials } from "./admin-credentials.ts";
import { createSession, deleteSession, findSession, sessionIdleMs, sessionMaxMs } from "./sessions.ts";

let db: SqlExecutor;
beforeAll(async () => {
  db = await createMigratedDatabase();
});
afterAll(async () => {
  await db.close();
});

const admin = adminCredentials({ ADMIN_USERNAME: "admin", ADMIN_PASSWORD_HASH: "scrypt$16384$8$1$salt$hash" });
const at = (ms: number) => () => new Date(Date.UTC(2026, 0, 1) + ms);

describe("admin sessions", () => {
  it("finds a session by its token and stores only a hash of it", async () => {
    const { token } = await createSession({ db, now: at(0), admin });
    expect(token.length).toBeGreaterThanOrEqual(43);
    expect(await findSession({ db, now: at(1000), admin }, token)).not.toBeNull();
    const stored = await db.query<{ token_hash: string }>("SELECT token_hash FROM admin_sessions");
    expect(stored.rows.some((row) => row.token_hash === token)).toBe(false);
  });

  it("expires after 12 idle hours, but use keeps it alive", async () => {
    const { token } = await createSession({ db, now: at(0), admin });
    expect(await findSession({ db, now: at(sessionIdleMs - 1000), admin }, token)).not.toBeNull();
    expect(await findSession({ db, now: at(2 * sessionIdleMs - 2000), admin }, token)).not.toBeNull();
    expect(await findSession({ db, now: at(3 * sessionIdleMs), admin }, token)).toBeNull();
  });

  it("expires 7 days after login however often it is used", async () => {
    const { token } = await createSession({ db, now: at(0), admin });
    for (let ms = sessionIdleMs / 2; ms < sessionMaxMs; ms += sessionIdleMs / 2) {
      expect(await findSession({ db, now: at(ms), admin }, token)).not.toBeNull();
    }
    expect(await findSession({ db, now: at(sessionMaxMs + 1), admin }, token)).toBeNull();
  });

  it("is gone after logout, and unknown tokens find nothing", async () => {
    const { token } = await createSession({ db, now: at(0), admin });
    await deleteSession({ db }, token);
    expect(await findSession({ db, now: at(2), admin }, token)).toBeNull();
    expect(await findSession({ db, now: at(2), admin }, "forged")).toBeNull();
    expect(await findSession({ db, now: at(2), admin }, undefined)).toBeNull();
  });
});
