import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import { backgroundJobs } from "../../src/app/background-jobs.ts";

// Each background job is declared once, in src/app/background-jobs.ts; its Scheduled Function in
// netlify/functions/ keeps only the static `config` (Netlify reads the schedule from the file
// before it runs anything) and a two-line body naming its row. A row without an entry never runs on
// Netlify; an entry without a row runs nothing locally: both fail here.
const functionsDir = fileURLToPath(new URL("../../netlify/functions/", import.meta.url));

interface Entry {
  name: string;
  source: string;
}

/** The schedule in an entry's static `config` literal, or null when it has none. */
function scheduleOf(source: string): string | null {
  const config = /export const config(?::\s*Config)?\s*=\s*\{([^}]*)\}/.exec(source)?.[1] ?? "";
  return /\bschedule:\s*"([^"]+)"/.exec(config)?.[1] ?? null;
}

/** What disagrees between the table's rows and the entry files, one line each. */
function mismatches(rows: readonly string[], entries: readonly Entry[]): string[] {
  const problems: string[] = [];
  const scheduled = entries.filter((entry) => scheduleOf(entry.source) !== null);
  for (const row of rows) {
    const entry = entries.find((candidate) => candidate.name === row);
    if (!entry) problems.push(`${row}: a row with no netlify/functions/${row}.ts`);
    else if (scheduleOf(entry.source) === null) problems.push(`${row}: netlify/functions/${row}.ts has no schedule in its config`);
  }
  for (const entry of scheduled) {
    if (!rows.includes(entry.name)) problems.push(`${entry.name}: a scheduled entry with no row in src/app/background-jobs.ts`);
    else if (!entry.source.includes(`runScheduledFunction("${entry.name}")`))
      problems.push(`${entry.name}: the entry does not run its own row (runScheduledFunction("${entry.name}"))`);
  }
  return problems;
}

const entries: Entry[] = readdirSync(functionsDir)
  .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
  .map((file) => ({ name: file.replace(/\.ts$/, ""), source: readFileSync(path.join(functionsDir, file), "utf8") }));

test("every job in the table has a scheduled entry, and every scheduled entry a row", () => {
  expect(
    mismatches(
      backgroundJobs.map((job) => job.name),
      entries,
    ),
  ).toEqual([]);
  expect(entries.filter((entry) => scheduleOf(entry.source)).length).toBe(backgroundJobs.length);
});

test("each row has a local interval and a budget a Scheduled Function can keep (it is stopped after 30 s)", () => {
  for (const job of backgroundJobs) {
    expect(job.localEveryMs, job.name).toBeGreaterThan(0);
    expect(job.budgetMs, job.name).toBeGreaterThan(0);
    expect(job.budgetMs, job.name).toBeLessThanOrEqual(25_000);
  }
});

describe("the check fires", () => {
  const entry = (name: string, config: string, body = `await runScheduledFunction("${name}");`) => ({
    name,
    source: `export default async () => {\n  ${body}\n};\n\nexport const config: Config = {\n  ${config}\n};\n`,
  });

  test("a row with no entry file", () => {
    expect(mismatches(["nightly-digest"], [])).toEqual(["nightly-digest: a row with no netlify/functions/nightly-digest.ts"]);
  });

  test("a row whose entry has no schedule", () => {
    expect(mismatches(["nightly-digest"], [entry("nightly-digest", "background: true")])).toEqual([
      "nightly-digest: netlify/functions/nightly-digest.ts has no schedule in its config",
    ]);
  });

  test("a scheduled entry with no row, or running another row", () => {
    expect(mismatches([], [entry("nightly-digest", `schedule: "@daily"`)])).toEqual([
      "nightly-digest: a scheduled entry with no row in src/app/background-jobs.ts",
    ]);
    expect(mismatches(["nightly-digest"], [entry("nightly-digest", `schedule: "@daily"`, `await runScheduledFunction("weekly-backup");`)])).toEqual([
      `nightly-digest: the entry does not run its own row (runScheduledFunction("nightly-digest"))`,
    ]);
  });

  test("entries without a schedule (the API, Background Functions) need no row", () => {
    expect(mismatches([], [entry("api", `path: "/api/*"`), entry("moving-background", "background: true")])).toEqual([]);
  });
});
