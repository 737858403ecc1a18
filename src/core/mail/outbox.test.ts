import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { applyMigrations, readMigrations } from "../db/migrations.ts";
import { createDownload } from "../downloads/downloads.service.ts";
import { claimOutbox, outboxRetryForMs } from "./outbox.ts";
import { outboxKinds } from "./outbox.schema.ts";

// The outbox (issue 27): every transactional email is queued with the change that causes it, and
// delivered by a worker that rides out an SMTP outage — driven here by a fake clock, never a sleep.

const pdf = () => readFile(new URL("../../../netlify/local/demo-content/files/investor-pitch-checklist.pdf", import.meta.url));

/** What the sink answers each recipient: 451 (try later), 550 (no such mailbox), or acceptance. */
const refusals = new Map<string, 451 | 550>();
let refuseAll: 451 | undefined;
let app: TestApp;
let clock: FakeClock;
let ip = 0;

beforeAll(async () => {
  clock = createFakeClock();
  app = await createTestApp({ clock, smtp: { reject: (address) => refuseAll ?? refusals.get(address) } });
});
afterAll(async () => {
  await app.close();
});

it("holds exactly the kinds of mail the code knows: the database's check and the one list agree", async () => {
  // Each feature's migration rewrites the check; one that forgot an earlier kind would refuse its mail.
  const { rows } = await app.deps.db.query<{ def: string }>(
    "SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'outbox_kind_check'",
  );
  const allowed = [...(rows[0]?.def ?? "").matchAll(/'([a-z-]+)'/g)].map((match) => match[1]);
  expect(allowed.sort()).toEqual([...outboxKinds].sort());
});

const post = (path: string, body: unknown) => {
  ip += 1;
  return app.handler(
    new Request(new URL(path, testOrigin), {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { ip: `198.18.7.${String(ip)}` },
  );
};
const subscribe = (email: string) => post("/api/newsletter/subscribe", { email });
const requestDownload = (id: number, email: string) => post(`/api/downloads/${String(id)}/request`, { email });

async function resource(title: string): Promise<number> {
  const created = await createDownload(app.deps, {
    title,
    description: "One sheet.",
    category: "Templates",
    file: new File([await pdf()], "sheet.pdf", { type: "application/pdf" }),
  });
  return created.id;
}

interface OutboxRow {
  kind: string;
  to_address: string;
  status: string;
  attempts: number;
  message_id: string;
  last_error: string | null;
}
async function outboxOf(address: string): Promise<OutboxRow[]> {
  const { rows } = await app.deps.db.query<OutboxRow>(
    "SELECT kind, to_address, status, attempts, message_id, last_error FROM outbox WHERE to_address = $1 ORDER BY id",
    [address],
  );
  return rows;
}

describe("an SMTP outage (451 to everyone)", () => {
  it("answers every signup and download request at once, keeps each email, and delivers each once after the server is back", async () => {
    const id = await resource("Cash Flow Forecast");
    const addresses = ["outage.one@example.com", "outage.two@example.com", "outage.three@example.com"];
    refuseAll = 451;
    expect((await subscribe(addresses[0] as string)).status).toBe(200);
    expect((await subscribe(addresses[1] as string)).status).toBe(200);
    const asked = await requestDownload(id, addresses[2] as string);
    expect(asked.status).toBe(200);
    expect(((await asked.json()) as { downloadUrl: string }).downloadUrl).toMatch(/^\/api\/downloads\/\d+\/file\?/);
    // Each call's own delivery run was refused: queued, pending, the reply kept, nothing sent.
    expect(app.mail.messages).toHaveLength(0);
    const queued = await Promise.all(addresses.map(outboxOf));
    expect(queued.map((rows) => rows.map((row) => [row.kind, row.status, row.attempts]))).toEqual([
      [["confirmation", "pending", 1]],
      [["confirmation", "pending", 1]],
      [["download", "pending", 1]],
    ]);
    expect(queued[0]?.[0]?.last_error).toMatch(/^451 /);
    // Still down half an hour later: tried again, still kept.
    clock.advance(30 * 60_000);
    expect(await app.deliverMail()).toEqual({ sent: 0, failed: 0, retried: 3 });
    // Back: the next run delivers each email once, with the Message-ID fixed when it was queued.
    refuseAll = undefined;
    clock.advance(30 * 60_000);
    expect(await app.deliverMail()).toEqual({ sent: 3, failed: 0, retried: 0 });
    expect(await app.deliverMail()).toEqual({ sent: 0, failed: 0, retried: 0 });
    for (const [index, address] of addresses.entries()) {
      const mails = app.mail.to(address);
      expect(mails).toHaveLength(1);
      expect(mails[0]?.messageId).toBe(queued[index]?.[0]?.message_id);
      expect(await outboxOf(address)).toMatchObject([{ status: "sent", attempts: 3, last_error: null }]);
    }
    expect(app.mail.to(addresses[2] as string)[0]?.subject).toBe("Your download: Cash Flow Forecast");
    // The personal export lists what was accepted, with the Message-ID the person received.
    const { rows: subscriber } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [addresses[0]]);
    const exported = await app.call(`/api/newsletter/subscribers/${String(subscriber[0]?.id)}/export`, { headers: await app.adminHeaders() });
    const data = (await exported.json()) as { emails: { kind: string; messageId: string }[] };
    expect(data.emails).toEqual([expect.objectContaining({ kind: "confirmation", messageId: app.mail.to(addresses[0] as string)[0]?.messageId })]);
  });

  it("a confirmation's welcome is queued with it and delivered after the outage too", async () => {
    const email = "outage.welcome@example.com";
    await subscribe(email);
    const link = /\/api\/newsletter\/confirm\?token=[\w.-]+/.exec(app.mail.to(email)[0]?.html ?? "")?.[0] as string;
    refuseAll = 451;
    const confirmed = await app.call(link, {
      method: "POST",
      headers: { origin: testOrigin, "content-type": "application/x-www-form-urlencoded" },
      body: "",
    });
    expect(confirmed.status).toBe(200);
    expect(app.mail.to(email)).toHaveLength(1);
    refuseAll = undefined;
    clock.advance(60_000);
    await app.deliverMail();
    expect(app.mail.to(email).map((mail) => mail.subject)).toEqual(["Confirm your subscription to No Filter", "You're in: welcome to No Filter"]);
  });
});

describe("failures", () => {
  it("a permanent refusal (550) is recorded as failed with the reply, and never tried again", async () => {
    const email = "no.such.user@example.com";
    refusals.set(email, 550);
    await subscribe(email);
    expect(await outboxOf(email)).toMatchObject([{ status: "failed", attempts: 1, last_error: expect.stringMatching(/^550 /) as string }]);
    refusals.delete(email);
    clock.advance(60 * 60_000);
    await app.deliverMail();
    expect(app.mail.to(email)).toHaveLength(0);
  });

  it("transient refusals are retried with backoff for 24 hours, then the message fails", async () => {
    const email = "greylisted@example.com";
    refusals.set(email, 451);
    await subscribe(email);
    let tries = 1;
    for (let waited = 0; waited < outboxRetryForMs; waited += 30 * 60_000) {
      clock.advance(30 * 60_000);
      const run = await app.deliverMail();
      tries += run.retried + run.failed;
    }
    const [row] = await outboxOf(email);
    expect(row).toMatchObject({ status: "failed", last_error: expect.stringMatching(/^451 /) as string });
    // 1, 2, 4, 8, 16 minutes, then every 30: about 50 hand-overs in a day.
    expect(tries).toBe(row?.attempts);
    expect(tries).toBeGreaterThan(40);
    refusals.delete(email);
  });
});

describe("a worker that dies mid-run", () => {
  it("leaves its rows leased; once the lease runs out another run sends them, with the same Message-ID", async () => {
    const email = "crash@example.com";
    refusals.set(email, 451);
    await subscribe(email);
    refusals.delete(email);
    clock.advance(60_000);
    // A run claims the row and is killed before handing it over.
    const [claimed] = await claimOutbox(app.deps, 5, 120_000);
    expect(claimed).toMatchObject({ to: email, attempts: 2 });
    expect(await app.deliverMail()).toEqual({ sent: 0, failed: 0, retried: 0 });
    clock.advance(120_000);
    expect(await app.deliverMail()).toEqual({ sent: 1, failed: 0, retried: 0 });
    expect(app.mail.to(email).map((mail) => mail.messageId)).toEqual([claimed?.messageId]);
  });
});

describe("erase", () => {
  it("deletes the person's queued email with them", async () => {
    const email = "erase.me@example.com";
    refusals.set(email, 451);
    await subscribe(email);
    expect(await outboxOf(email)).toHaveLength(1);
    const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email]);
    const erased = await app.call(`/api/newsletter/subscribers/${String(rows[0]?.id)}`, { method: "DELETE", headers: await app.adminHeaders() });
    expect(erased.status).toBe(204);
    expect(await outboxOf(email)).toHaveLength(0);
    refusals.delete(email);
  });
});

// The download email's limit is claimed in the request's transaction: on PGlite, and on every
// PostgreSQL server configured (TEST_DATABASE_URL), where the requests really run in parallel.
describe.each(featureDatabaseTargets)("10 parallel download requests on $name", (target) => {
  let testDb: TestDatabase;
  let raceApp: TestApp;
  beforeAll(async () => {
    testDb = await target.create();
    await applyMigrations(testDb.db, await readMigrations());
    raceApp = await createTestApp({ db: testDb.db });
  });
  afterAll(async () => {
    await raceApp.close();
    await testDb.drop();
  });

  it("send one email to the address", async () => {
    const created = await createDownload(raceApp.deps, {
      title: "Race",
      description: "Asked for ten times at once",
      category: "Checklists",
      file: new File([await pdf()], "race.pdf", { type: "application/pdf" }),
    });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        raceApp.handler(
          new Request(new URL(`/api/downloads/${String(created.id)}/request`, testOrigin), {
            method: "POST",
            headers: { origin: testOrigin, "content-type": "application/json" },
            body: JSON.stringify({ email: "racer@example.com" }),
          }),
          { ip: `203.0.113.${String(i)}` },
        ),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array.from({ length: 10 }, () => 200));
    await raceApp.deliverMail();
    expect(raceApp.mail.to("racer@example.com")).toHaveLength(1);
    const { rows } = await testDb.db.query("SELECT 1 FROM outbox WHERE to_address = 'racer@example.com'");
    expect(rows).toHaveLength(1);
  });
});
