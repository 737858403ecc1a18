import { describe, expect, it } from "vitest";
import { settingDefinitions, settingValueSchema } from "../settings/settings.schema.ts";
import { fullHandle, handleFromName, handlePattern } from "./handle.ts";

describe("the fediverse handle", () => {
  it("defaults to the site's name in lower case without spaces or punctuation", () => {
    expect(handleFromName("No Filter")).toBe("nofilter");
    expect(settingDefinitions.fediverse_handle.defaultValue).toBe(handleFromName("No Filter"));
    expect(handleFromName("Café Founders, Inc.")).toBe("cafefoundersinc");
    expect(handlePattern.test(handleFromName("No Filter"))).toBe(true);
  });

  it("is written @handle@host, and the setting refuses what a server would not resolve", () => {
    expect(fullHandle("nofilter", "localhost:8888")).toBe("@nofilter@localhost:8888");
    expect(settingValueSchema("fediverse_handle").safeParse("no_filter2").success).toBe(true);
    expect(settingValueSchema("fediverse_handle").safeParse("").success).toBe(true);
    const refused = settingValueSchema("fediverse_handle").safeParse("No Filter!");
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toMatch(/lower-case letters, digits or underscores/);
  });
});
