import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createFakeClock, type FakeClock } from "../../../tests/support/fake-clock.ts";
import type { CaughtMail } from "../../../tests/support/smtp-sink.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { claimOutbox } from "../mail/outbox.ts";
import { requestDownload } from "../downloads/downloads.service.ts";
import { eraseSubscriber } from "../subscribers/subscriber-privacy.ts";
import { importSubscribers } from "../subscribers/subscriber-import.ts";
import { importConsentWording } from "../subscribers/subscriber-import.schema.ts";
import { subscribe } from "../subscribers/subscribers.service.ts";
import { confirmSubscription, unsubscribe } from "../subscribers/subscription-lifecycle.ts";
import { defaultWelcomeStep, getSequence, runDueSequenceSteps, sequenceStats, updateSequence } from "./sequences.service.ts";

let app: TestApp;
let clock: FakeClock;
let ip = 0;
const minute = 60_000;

beforeAll(async () => {
  clock = createFakeClock();
  app = await createTestApp({ now: () => clock.now() });
});
afterAll(async () => {
  await app.close();
});

const deps = () => app.deps;
let person = 0;
const address = (name: string) => `${name}-${String((person += 1))}@example.com`;

/** The token of a link to `path` in an email. */
function tokenIn(mail: CaughtMail, path: string): string {
  const match = new RegExp(`${testOrigin}${path.replace(/[/?]/g, "\\$&")}\\?token=([\\w.-]+)`).exec(mail.html);
  if (!match?.[1]) throw new Error(`no ${path} link in "${mail.subject}"`);
  return match[1];
}

/** Signs up on the form and presses the confirmation link: the real double opt-in. */
async function confirmNew(email: string): Promise<number> {
  ip += 1;
  await subscribe(deps(), { email, clientIp: `198.19.0.${String(ip)}` });
  await app.deliverMail();
  const confirmation = app.mail.to(email).find((mail) => mail.subject.startsWith("Confirm"));
  if (!confirmation) throw new Error(`no confirmation to ${email}`);
  expect(await confirmSubscription(deps(), tokenIn(confirmation, "/api/newsletter/confirm"))).toBe("confirmed");
  return subscriberId(email);
}

async function subscriberId(email: string): Promise<number> {
  const { rows } = await app.deps.db.query<{ id: number }>("SELECT id FROM subscribers WHERE email = $1", [email]);
  return rows[0]?.id as number;
}

/** One timer tick: the sequences' run, then the outbox's delivery. */
async function tick(): Promise<void> {
  await runDueSequenceSteps(deps());
  await app.deliverMail();
}

const subjects = (email: string) => app.mail.to(email).map((mail) => mail.subject);
const step = (subject: string, delayMinutes: number) => ({ subject, delayMinutes, html: `<p>${subject} body</p>` });

describe("the welcome sequence", () => {
  it("starts as the built-in welcome: one step, at once, that a new subscriber gets on confirming", async () => {
    const welcome = await getSequence(deps(), "welcome");
    const builtIn = defaultWelcomeStep(app.deps.site);
    expect(welcome).toMatchObject({ key: "welcome", name: "Welcome", enabled: true });
    expect(welcome.steps).toEqual([{ id: expect.any(Number) as number, delayMinutes: 0, ...builtIn }]);
    const email = address("fresh");
    await confirmNew(email);
    await app.deliverMail();
    const [, welcomeMail] = app.mail.to(email);
    expect(welcomeMail?.subject).toBe(builtIn.subject);
    expect(welcomeMail?.html).toContain("Thanks for confirming.");
    // The newsletter's footer and one-click headers.
    expect(welcomeMail?.html).toContain("Unsubscribe");
    expect(welcomeMail?.header("List-Unsubscribe")).toMatch(/^<http:\/\/localhost:8888\/api\/newsletter\/unsubscribe\?token=/);
    expect(welcomeMail?.header("List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    // Every sequence email carries "Choose what you get" (issue 42 point 3), signed for the person.
    expect(welcomeMail?.html).toMatch(
      /<a href="http:\/\/localhost:8888\/api\/newsletter\/preferences\?token=p\.\d+\.[\w-]+"[^>]*>Choose what you get<\/a>/,
    );
    // It opens with its heading: no empty band above it (the column's padding is the only space
    // there, as above the other emails' headings); the headings after text keep their margin.
    expect(welcomeMail?.html).toMatch(/<h1 style="margin:0 0 12px 0;[^"]*">You/);
    expect(welcomeMail?.html).toMatch(/<h2 style="margin:24px 0 12px;[^"]*">Until the first one lands/);
    expect(welcomeMail?.html).toContain(`<title>${builtIn.subject.replaceAll("'", "&#x27;")}</title>`);
  });

  describe("with three steps", () => {
    let steps: number[];
    beforeEach(async () => {
      const saved = await updateSequence(deps(), "welcome", {
        enabled: true,
        steps: [step("Day zero", 0), step("An hour later", 60), step("A day later", 24 * 60)],
      });
      steps = saved.steps.map((s) => s.id);
    });

    it("sends each step at its time, once", async () => {
      const email = address("timed");
      await confirmNew(email);
      await app.deliverMail();
      expect(subjects(email)).toHaveLength(2);
      expect(subjects(email)[1]).toBe("Day zero");
      clock.advance(59 * minute);
      await tick();
      expect(subjects(email)).toHaveLength(2);
      clock.advance(minute);
      await tick();
      await tick();
      expect(subjects(email).slice(1)).toEqual(["Day zero", "An hour later"]);
      clock.advance(24 * 60 * minute - 1000);
      await tick();
      expect(subjects(email)).toHaveLength(3);
      clock.advance(1000);
      await tick();
      await tick();
      expect(subjects(email).slice(1)).toEqual(["Day zero", "An hour later", "A day later"]);
      clock.advance(30 * 24 * 60 * minute);
      await tick();
      expect(subjects(email)).toHaveLength(4);
      const stats = await sequenceStats(deps(), "welcome");
      expect(stats.map((s) => s.stepId)).toEqual(steps);
      expect(stats.every((s) => s.sent >= 1)).toBe(true);
    });

    it("a step due while nothing ran goes out when a run comes, once", async () => {
      const email = address("downtime");
      await confirmNew(email);
      await app.deliverMail();
      // The server was down for three days.
      clock.advance(3 * 24 * 60 * minute);
      await Promise.all([runDueSequenceSteps(deps()), runDueSequenceSteps(deps())]);
      await app.deliverMail();
      await tick();
      // Step two now; step three a day after it, not at once.
      expect(subjects(email).slice(1)).toEqual(["Day zero", "An hour later"]);
      clock.advance(24 * 60 * minute);
      await tick();
      await tick();
      expect(subjects(email).slice(1)).toEqual(["Day zero", "An hour later", "A day later"]);
    });

    it("goes out once when a run crashes between claiming a step and queueing it, and once when delivery dies", async () => {
      const email = address("crash");
      await confirmNew(email);
      await app.deliverMail();
      clock.advance(60 * minute);
      // The run dies after it claimed the step (its delivery row is written) and before the outbox row: all rolled back.
      await expect(runDueSequenceSteps({ ...deps(), db: crashingOn(app.deps.db, "INSERT INTO outbox") })).rejects.toThrow("crash");
      expect(subjects(email)).toHaveLength(2);
      const queuedSteps = async () =>
        (await app.deps.db.query("SELECT 1 FROM outbox WHERE to_address = $1 AND kind = 'sequence'", [email])).rows.length;
      expect(await queuedSteps()).toBe(1);
      expect((await runDueSequenceSteps(deps())).queued).toBeGreaterThanOrEqual(1);
      await runDueSequenceSteps(deps());
      expect(await queuedSteps()).toBe(2);
      // The outbox worker claims it and dies before sending: its lease runs out, and another sends it, once.
      const claimed = await claimOutbox({ db: app.deps.db, now: () => clock.now() }, 10, 2 * minute);
      expect(claimed.map((message) => message.to)).toContain(email);
      await app.deliverMail();
      expect(subjects(email)).toHaveLength(2);
      clock.advance(2 * minute);
      await app.deliverMail();
      await tick();
      expect(subjects(email).slice(1)).toEqual(["Day zero", "An hour later"]);
      expect(app.mail.counts().duplicates).toBe(0);
    });

    it("stops when the person unsubscribes, and sends nothing queued before they did", async () => {
      const email = address("leaving");
      const id = await confirmNew(email);
      await app.deliverMail();
      clock.advance(60 * minute);
      await runDueSequenceSteps(deps());
      const welcome = app.mail.to(email)[1] as CaughtMail;
      expect(await unsubscribe(deps(), tokenIn(welcome, "/api/newsletter/unsubscribe"))).toBe("unsubscribed");
      await app.deliverMail();
      clock.advance(30 * 24 * 60 * minute);
      await tick();
      await tick();
      expect(subjects(email).slice(1)).toEqual(["Day zero"]);
      const { rows } = await app.deps.db.query<{ finished: boolean }>(
        "SELECT finished_at IS NOT NULL AS finished FROM sequence_enrollments WHERE subscriber_id = $1",
        [id],
      );
      expect(rows).toEqual([{ finished: true }]);
      const stats = await sequenceStats(deps(), "welcome");
      expect(stats.find((s) => s.stepId === steps[1])?.unsubscribed).toBeGreaterThanOrEqual(1);
    });

    it("stops when the address bounces or the person is erased", async () => {
      const bouncing = address("bouncing");
      const erased = address("erased");
      await confirmNew(bouncing);
      const erasedId = await confirmNew(erased);
      await app.deliverMail();
      await app.deps.db.query("UPDATE subscribers SET status = 'bounced' WHERE email = $1", [bouncing]);
      await eraseSubscriber(deps(), erasedId);
      clock.advance(30 * 24 * 60 * minute);
      await tick();
      await tick();
      expect(subjects(bouncing).slice(1)).toEqual(["Day zero"]);
      expect(subjects(erased).slice(1)).toEqual(["Day zero"]);
    });

    it("an edited step changes only what was not sent", async () => {
      const early = address("early");
      await confirmNew(early);
      await app.deliverMail();
      await updateSequence(deps(), "welcome", {
        enabled: true,
        steps: [
          { id: steps[0], ...step("Day zero, edited", 0) },
          { id: steps[1], ...step("An hour later, edited", 60) },
          { id: steps[2], ...step("A day later", 24 * 60) },
        ],
      });
      const late = address("late");
      await confirmNew(late);
      await app.deliverMail();
      clock.advance(60 * minute);
      await tick();
      await tick();
      expect(subjects(early).slice(1)).toEqual(["Day zero", "An hour later, edited"]);
      expect(subjects(late).slice(1)).toEqual(["Day zero, edited", "An hour later, edited"]);
      expect(app.mail.to(late)[2]?.html).toContain("An hour later, edited body");
    });
  });
});

describe("a CSV import", () => {
  beforeAll(async () => {
    await updateSequence(deps(), "welcome", { enabled: true, steps: [step("Welcome aboard", 0)] });
  });
  const csv = (emails: string[]) => new Blob([["email", ...emails].join("\n")]);

  it("leaves imported people out of the welcome sequence unless the owner ticks it", async () => {
    const quiet = address("imported-quiet");
    const welcomed = address("imported-welcomed");
    await importSubscribers(deps(), { file: csv([quiet]), wording: importConsentWording });
    await importSubscribers(deps(), { file: csv([welcomed]), wording: importConsentWording, welcome: true });
    clock.advance(minute);
    await tick();
    await tick();
    expect(subjects(quiet)).toEqual([]);
    expect(subjects(welcomed)).toEqual(["Welcome aboard"]);
  });
});

describe("a resource's sequence", () => {
  let downloadId: number;
  beforeAll(async () => {
    const { rows } = await app.deps.db.query<{ id: number }>(
      "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size) VALUES ('Deck', 'A deck', 'Guides', 'deck.pdf', 'x', 'application/pdf', 10) RETURNING id",
    );
    downloadId = rows[0]?.id as number;
    await app.deps.files.put("x", new TextEncoder().encode("%PDF-1.4"), { contentType: "application/pdf", fileName: "deck.pdf" });
    await updateSequence(deps(), "welcome", { enabled: true, steps: [step("Welcome aboard", 0)] });
    await updateSequence(deps(), `download-${String(downloadId)}`, { enabled: true, steps: [step("How was the deck?", 60)] });
  });

  const request = (email: string) => {
    ip += 1;
    return requestDownload(deps(), { id: downloadId, email, clientIp: `198.19.1.${String(ip)}` });
  };

  /** The download link in an email (as a mail client would open it). */
  const emailedLink = (mail: CaughtMail) => {
    const match = /\/api\/downloads\/\d+\/file\?[^"]+/.exec(mail.html);
    if (!match) throw new Error(`no download link in "${mail.subject}"`);
    return match[0].replaceAll("&amp;", "&");
  };
  const open = async (path: string, method = "GET") => {
    const answer = await app.call(path, { method });
    expect(answer.status).toBe(200);
    await answer.arrayBuffer();
  };
  const downloadMailTo = (email: string) => app.mail.to(email).find((mail) => mail.subject === "Your download: Deck") as CaughtMail;

  it("starts for a requester who opened the emailed link, once they confirm", async () => {
    const email = address("requester");
    await request(email);
    await app.deliverMail();
    const downloadMail = app.mail.to(email)[0] as CaughtMail;
    expect(downloadMail.subject).toBe("Your download: Deck");
    await open(emailedLink(downloadMail));
    clock.advance(2 * 60 * minute);
    await tick();
    // Not confirmed: nothing from the sequence.
    expect(subjects(email)).toEqual(["Your download: Deck"]);
    expect(await confirmSubscription(deps(), tokenIn(downloadMail, "/api/newsletter/confirm"))).toBe("confirmed");
    await app.deliverMail();
    expect(subjects(email)).toEqual(["Your download: Deck", "Welcome aboard"]);
    clock.advance(60 * minute);
    await tick();
    await tick();
    expect(subjects(email)).toEqual(["Your download: Deck", "Welcome aboard", "How was the deck?"]);
  });

  it("starts nothing when a stranger types a subscriber's address into the form; the owner opening the emailed link starts it", async () => {
    const email = address("subscriber");
    await confirmNew(email);
    // The stranger: the form, and the link in its answer, which they open.
    const answer = await request(email);
    await open(answer.downloadUrl);
    await request(email);
    await app.deliverMail();
    // The one download email, and nothing else, however long we wait (a mail scanner's HEAD included).
    await open(emailedLink(downloadMailTo(email)), "HEAD");
    clock.advance(3 * 60 * minute);
    await tick();
    await tick();
    expect(subjects(email).filter((subject) => subject === "Your download: Deck")).toHaveLength(1);
    expect(subjects(email)).not.toContain("How was the deck?");
    const { rows } = await app.deps.db.query(
      "SELECT 1 FROM sequence_enrollments e JOIN sequences q ON q.id = e.sequence_id WHERE q.download_id = $1 AND e.subscriber_id = $2",
      [downloadId, await subscriberId(email)],
    );
    expect(rows).toHaveLength(0);
    // The owner opens the link in their email (twice): the sequence starts, once.
    await open(emailedLink(downloadMailTo(email)));
    await open(emailedLink(downloadMailTo(email)));
    clock.advance(60 * minute);
    await tick();
    await tick();
    expect(subjects(email).filter((subject) => subject === "How was the deck?")).toHaveLength(1);
    const stats = await sequenceStats(deps(), `download-${String(downloadId)}`);
    expect(stats[0]?.sent).toBe(2);
  });

  it("refuses an emailed link whose recipient was changed", async () => {
    const email = address("tampered");
    await request(email);
    await app.deliverMail();
    const link = emailedLink(downloadMailTo(email));
    const someoneElse = (await subscriberId(email)) + 1;
    expect((await app.call(link.replace(/([?&]r=)\d+/, `$1${String(someoneElse)}`))).status).toBe(403);
    expect((await app.call(link.replace(/&r=\d+/, ""))).status).toBe(403);
  });
});

/** The database, but the first statement containing `marker` inside a transaction throws (a worker dying there). */
function crashingOn(db: SqlExecutor, marker: string): SqlExecutor {
  let crashed = false;
  const wrap = (tx: SqlQueryable): SqlQueryable => ({
    exec: (sql) => tx.exec(sql),
    query: (sql, params) => {
      if (!crashed && sql.includes(marker)) {
        crashed = true;
        return Promise.reject(new Error("crash"));
      }
      return tx.query(sql, params);
    },
  });
  return {
    ...db,
    query: db.query.bind(db),
    exec: db.exec.bind(db),
    close: db.close.bind(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
  };
}

describe.each(featureDatabaseTargets)("overlapping runs on $name", (target) => {
  let testDb: TestDatabase;
  let other: TestApp;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    other = await createTestApp({ db: testDb.db, now: () => clock.now() });
  });
  afterAll(async () => {
    await other.close();
    await testDb.drop();
  });

  it("queue each person's step once, however many run at once", async () => {
    const emails = Array.from({ length: 40 }, (_, index) => `overlap-${String(index)}@example.com`);
    await importSubscribers(other.deps, { file: new Blob([["email", ...emails].join("\n")]), wording: importConsentWording, welcome: true });
    const runs = await Promise.all(Array.from({ length: 4 }, () => runDueSequenceSteps(other.deps, { batch: 7 })));
    expect(runs.reduce((sum, run) => sum + run.queued, 0)).toBe(40);
    const { rows } = await other.deps.db.query<{ to_address: string }>("SELECT to_address FROM outbox WHERE kind = 'sequence'");
    expect(rows.map((row) => row.to_address).sort()).toEqual([...emails].sort());
    expect((await runDueSequenceSteps(other.deps)).queued).toBe(0);
  });
});
