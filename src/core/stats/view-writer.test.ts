import { expect, it } from "vitest";
import { featureDatabaseTargets } from "../../../tests/support/test-databases.ts";
import { writeView } from "./view-writer.ts";

it.each(featureDatabaseTargets)("keeps one client to 20 visitors a day, in one batch and across batches, on $name", async (target) => {
  const t = await target.createMigrated();
  try {
    const row = (n: number, client = "c1") => ({
      day: "2026-03-10",
      at: new Date(),
      visitor: `v${String(n)}`,
      path: "/",
      source: "",
      utmMedium: "",
      utmCampaign: "",
      device: "desktop",
      country: "",
      client,
    });
    await Promise.all(Array.from({ length: 50 }, (_, n) => writeView(t.db, row(n))));
    await Promise.all(Array.from({ length: 5 }, (_, n) => writeView(t.db, row(n))));
    await writeView(t.db, row(999, "c2"));
    const { rows } = await t.db.query<{ visitors: number; views: number }>(
      "SELECT count(DISTINCT visitor)::int AS visitors, count(*)::int AS views FROM stats_events",
    );
    expect(rows[0]).toEqual({ visitors: 21, views: 26 });
  } finally {
    await t.drop();
  }
});
