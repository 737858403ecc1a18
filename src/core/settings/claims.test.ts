import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMigratedDatabase } from "../../../tests/support/test-databases.ts";
import type { SqlExecutor } from "../db/sql-executor.ts";
import { aboutClaimKeys, claimKeys, downloadsClaimKeys, settingDefinitions, splitClaim } from "./settings.schema.ts";
import { hideSettings, siteSettingValues, updateSiteSetting } from "./settings.service.ts";

let db: SqlExecutor;
beforeAll(async () => {
  db = await createMigratedDatabase();
});
afterAll(async () => {
  await db.close();
});
const now = () => new Date("2026-11-27T09:00:00Z");

describe("the claims (home About stats, /downloads hero)", () => {
  it("default to SPEC §9's texts, word for word, in the order the pages show them", () => {
    expect(aboutClaimKeys.map((key) => settingDefinitions[key].defaultValue)).toEqual([
      "500+ Founders Helped",
      "50+ Brutal Truths Shared",
      "10k+ Downloads",
    ]);
    expect(downloadsClaimKeys.map((key) => settingDefinitions[key].defaultValue)).toEqual(["10,000+ downloads", "5,000+ founders"]);
    for (const key of claimKeys) expect(settingDefinitions[key]).toMatchObject({ type: "text", hideable: true });
  });

  it("split into the figure (the first word) and its label", () => {
    expect(splitClaim("500+ Founders Helped")).toEqual({ figure: "500+", label: "Founders Helped" });
    expect(splitClaim("  10,000+   downloads ")).toEqual({ figure: "10,000+", label: "downloads" });
    expect(splitClaim("Free")).toEqual({ figure: "Free", label: "" });
  });

  it("read as the defaults until set; a set one is the owner's, a hidden one empty, an emptied one the default again", async () => {
    const deps = { db, now, rebuild: () => undefined };
    expect((await siteSettingValues(deps)).claim_founders_helped).toBe("500+ Founders Helped");
    await updateSiteSetting(deps, "claim_founders_helped", "120 Founders Helped");
    expect(await hideSettings(deps, ["claim_downloads_page_founders"])).toBe(1);
    const values = await siteSettingValues(deps);
    expect(values.claim_founders_helped).toBe("120 Founders Helped");
    expect(values.claim_downloads_page_founders).toBe("");
    expect(values.claim_truths_shared).toBe("50+ Brutal Truths Shared");
    await updateSiteSetting(deps, "claim_downloads_page_founders", "");
    expect((await siteSettingValues(deps)).claim_downloads_page_founders).toBe("5,000+ founders");
  });
});
