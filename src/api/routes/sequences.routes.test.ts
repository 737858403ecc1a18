import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFakeClock } from "../../../tests/support/fake-clock.ts";
import { multipartBody } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Sequence, SequenceStepStats } from "../../core/sequences/sequence.schema.ts";

let app: TestApp;
let admin: Record<string, string>;
let downloadId: number;

const json = (method: string, path: string, body?: unknown, headers: Record<string, string> = admin) =>
  app.call(path, {
    method,
    headers: { ...headers, origin: testOrigin, "content-type": "application/json" },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });

beforeAll(async () => {
  app = await createTestApp({ clock: createFakeClock(new Date("2026-11-24T12:00:00Z")) });
  admin = await app.adminHeaders();
  const { rows } = await app.deps.db.query<{ id: number }>(
    "INSERT INTO downloads (title, description, category, file_name, file_key, file_type, file_size) VALUES ('Deck', 'A deck', 'Guides', 'deck.pdf', 'x', 'application/pdf', 10) RETURNING id",
  );
  downloadId = rows[0]?.id as number;
});
afterAll(async () => {
  await app.close();
});

describe("/api/sequences", () => {
  it("answers 401 without a session, for every call", async () => {
    expect((await json("GET", "/api/sequences", undefined, {})).status).toBe(401);
    expect((await json("PUT", "/api/sequences/welcome", { enabled: true, steps: [] }, {})).status).toBe(401);
    expect((await json("GET", "/api/sequences/welcome/stats", undefined, {})).status).toBe(401);
    expect((await json("POST", "/api/sequences/welcome/preview", { subject: "S", html: "<p>x</p>" }, {})).status).toBe(401);
  });

  it("sends a test of a saved step to the address given, made from the step as saved; to no subscriber, in no one's history", async () => {
    app.mail.clear();
    const welcome = ((await (await json("GET", "/api/sequences")).json()) as Sequence[])[0] as Sequence;
    const step = welcome.steps[0] as Sequence["steps"][number];
    const answer = await json("POST", `/api/sequences/welcome/steps/${String(step.id)}/test`, { email: "Owner@Example.com" });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ sent: true });
    const [mail] = await app.mail.waitFor(1);
    expect(mail?.to).toEqual(["owner@example.com"]);
    expect(mail?.subject).toBe(`[Test] ${step.subject}`);
    expect(mail?.html).toContain("You subscribed to the");
    expect(mail?.headers.has("list-unsubscribe-post")).toBe(false);
    expect(mail?.headers.get("auto-submitted")).toBe("auto-generated");
    expect((await app.deps.db.query("SELECT 1 FROM subscriber_emails")).rows).toEqual([]);
    // A step of another sequence, one not saved, a bad address, no session: refused, nothing queued.
    const queued = (await app.deps.db.query("SELECT count(*)::int AS n FROM outbox")).rows;
    expect(
      await (await json("POST", `/api/sequences/download-${String(downloadId)}/steps/${String(step.id)}/test`, { email: "o@example.com" })).json(),
    ).toEqual({
      error: "Step not found: save the sequence first, then send a test of the step",
    });
    expect((await json("POST", "/api/sequences/welcome/steps/0/test", { email: "o@example.com" })).status).toBe(404);
    expect((await json("POST", `/api/sequences/welcome/steps/${String(step.id)}/test`, { email: "not-an-address" })).status).toBe(400);
    expect((await json("POST", `/api/sequences/welcome/steps/${String(step.id)}/test`, { email: "o@example.com" }, {})).status).toBe(401);
    expect((await app.deps.db.query("SELECT count(*)::int AS n FROM outbox")).rows).toEqual(queued);
  });

  it("previews a step as it would be mailed, from unsaved words, sanitized, with the footer of the people it goes to; nothing is saved or sent", async () => {
    const before = (await (await json("GET", "/api/sequences")).json()) as Sequence[];
    const outbox = await app.deps.db.query("SELECT count(*)::int AS n FROM outbox");
    const response = await json("POST", "/api/sequences/welcome/preview", {
      subject: "  Day two:\n the   runway  ",
      html: '<p>Count the <a href="/blog/runway">months</a>.</p><script>alert(1)</script>',
    });
    expect(response.status).toBe(200);
    const preview = (await response.json()) as { subject: string; html: string; text: string };
    expect(preview.subject).toBe("Day two: the runway");
    expect(preview.html).toContain("Count the");
    expect(preview.html).toContain(`href="${new URL("/blog/runway", app.deps.site.url).toString()}"`);
    expect(preview.html).not.toContain("<script");
    expect(preview.html).toContain("You subscribed to the");
    expect(preview.text).toContain("Count the months");
    const download = (await (
      await json("POST", `/api/sequences/download-${String(downloadId)}/preview`, { subject: "Your deck", html: "<p>Here.</p>" })
    ).json()) as { html: string };
    expect(download.html).toContain("when you asked for a free resource");
    // Refused like a save: no subject, no body; an unknown key.
    expect(await (await json("POST", "/api/sequences/welcome/preview", { subject: " ", html: "<p>x</p>" })).json()).toEqual({
      error: "Each step needs a subject.",
    });
    expect((await json("POST", "/api/sequences/welcome/preview", { subject: "S" })).status).toBe(400);
    expect((await json("POST", "/api/sequences/nope/preview", { subject: "S", html: "<p>x</p>" })).status).toBe(404);
    expect(await (await json("GET", "/api/sequences")).json()).toEqual(before);
    expect((await app.deps.db.query("SELECT count(*)::int AS n FROM outbox")).rows).toEqual(outbox.rows);
  });

  it("lists the welcome sequence (the built-in welcome as its one step) and one per resource", async () => {
    const response = await json("GET", "/api/sequences");
    expect(response.status).toBe(200);
    const sequences = (await response.json()) as Sequence[];
    expect(sequences.map(({ key, name, enabled }) => ({ key, name, enabled }))).toEqual([
      { key: "welcome", name: "Welcome", enabled: true },
      { key: `download-${String(downloadId)}`, name: "After download: Deck", enabled: false },
    ]);
    expect(sequences[0]?.steps).toEqual([
      {
        id: expect.any(Number) as number,
        delayMinutes: 0,
        subject: "You're in: welcome to No Filter",
        html: expect.stringContaining("You're in") as string,
      },
    ]);
    expect(sequences[1]?.steps).toEqual([]);
  });

  it("saves a sequence whole: edits by id, adds, removes, sanitizes; answers the sequence", async () => {
    const key = `download-${String(downloadId)}`;
    const first = await json("PUT", `/api/sequences/${key}`, {
      enabled: true,
      steps: [
        { delayMinutes: 0, subject: "Thanks", html: '<p>Enjoy<script>alert(1)</script> <a href="https://example.com/x">this</a></p>' },
        { delayMinutes: 2 * 24 * 60, subject: "Two days on", html: "<p>How is it going?</p>" },
      ],
    });
    expect(first.status).toBe(200);
    const saved = (await first.json()) as Sequence;
    expect(saved.enabled).toBe(true);
    expect(saved.steps.map((step) => step.subject)).toEqual(["Thanks", "Two days on"]);
    expect(saved.steps[0]?.html).toBe('<p>Enjoy <a href="https://example.com/x">this</a></p>');
    const [thanks, later] = saved.steps;
    const second = await json("PUT", `/api/sequences/${key}`, {
      enabled: false,
      steps: [
        { id: later?.id, delayMinutes: 60, subject: "An hour on", html: "<p>Hi</p>" },
        { delayMinutes: 5, subject: "New", html: "<p>New</p>" },
      ],
    });
    const edited = (await second.json()) as Sequence;
    expect(edited.enabled).toBe(false);
    expect(edited.steps.map((step) => [step.id === later?.id, step.subject, step.delayMinutes])).toEqual([
      [true, "An hour on", 60],
      [false, "New", 5],
    ]);
    expect(edited.steps.some((step) => step.id === thanks?.id)).toBe(false);
    const stats = await json("GET", `/api/sequences/${key}/stats`);
    expect(stats.status).toBe(200);
    expect((await stats.json()) as SequenceStepStats[]).toEqual(
      edited.steps.map((step) => ({ stepId: step.id, sent: 0, unsubscribed: 0, clicks: 0, uniqueClicks: 0 })),
    );
  });

  it("answers 404 JSON for an unknown key or resource, and 400 for a bad body or a step of another sequence", async () => {
    for (const path of [
      "/api/sequences/nope",
      "/api/sequences/download-999999",
      "/api/sequences/download-0/stats",
      "/api/sequences/download-999999/stats",
    ]) {
      const response = path.endsWith("stats") ? await json("GET", path) : await json("PUT", path, { enabled: true, steps: [] });
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: string }).error).toBe("Sequence not found");
    }
    const bad = [
      { enabled: true, steps: [{ delayMinutes: -1, subject: "x", html: "<p>x</p>" }] },
      { enabled: true, steps: [{ delayMinutes: 1.5, subject: "x", html: "<p>x</p>" }] },
      { enabled: true, steps: [{ delayMinutes: 0, subject: " ", html: "<p>x</p>" }] },
      { enabled: true, steps: [{ delayMinutes: 0, subject: "x", html: "<script>x</script>" }] },
      { enabled: true, steps: [{ delayMinutes: 0, subject: "x", html: "<p> </p>" }] },
      { enabled: "yes", steps: [] },
      { enabled: true, steps: [{ id: 999999, delayMinutes: 0, subject: "x", html: "<p>x</p>" }] },
    ];
    for (const body of bad) {
      const response = await json("PUT", "/api/sequences/welcome", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof ((await response.json()) as { error: string }).error).toBe("string");
    }
  });
});

describe("POST /api/newsletter/subscribers/import with `welcome`", () => {
  it("enrolls the new people in the welcome sequence only when the field is ticked", async () => {
    const importCsv = async (email: string, welcome?: string) => {
      const { body, contentType } = await multipartBody({
        file: new File([`email\n${email}\n`], "list.csv", { type: "text/csv" }),
        consent: "true",
        ...(welcome !== undefined && { welcome }),
      });
      const response = await app.call("/api/newsletter/subscribers/import", {
        method: "POST",
        headers: { ...admin, origin: testOrigin, "content-type": contentType },
        body,
      });
      expect(response.status).toBe(200);
    };
    await importCsv("api-ticked@example.com", "true");
    await importCsv("api-unticked@example.com", "false");
    await importCsv("api-absent@example.com");
    const { rows } = await app.deps.db.query<{ email: string }>(
      "SELECT s.email FROM sequence_enrollments e JOIN subscribers s ON s.id = e.subscriber_id WHERE s.email LIKE 'api-%' ORDER BY 1",
    );
    expect(rows.map((row) => row.email)).toEqual(["api-ticked@example.com"]);
  });
});
