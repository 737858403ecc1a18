import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { isShownOnSite, settingKeys } from "../../src/core/settings/settings.schema.ts";

/**
 * A setting marked `offSite` asks for no site build when it changes and is left out of every page's
 * key (docs/decisions/0089-incremental-site-build.md): if a page came to show it, a change would
 * stay invisible until the next full build. So no code the site build renders with may name it.
 */
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const siteFolders = ["src/pages", "src/components", "src/layouts", "src/lib", "src/islands/public"];

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(projectRoot, folder), { recursive: true, encoding: "utf8" })
    .filter((file) => /\.(astro|tsx?)$/.test(file) && !/\.test\.tsx?$/.test(file))
    .map((file) => path.join(folder, file));
}

describe("settings no page shows", () => {
  const offSite = settingKeys.filter((key) => !isShownOnSite(key));
  const files = siteFolders.flatMap(sourceFiles).map((file) => ({ file, text: readFileSync(path.join(projectRoot, file), "utf8") }));

  it("are the rules of mail, comments, federation and payments, and the site shows every other", () => {
    expect(offSite).toEqual(expect.arrayContaining(["mailing_address", "complaint_pause_percent", "comment_hold_words", "fediverse_content"]));
    expect(offSite).not.toContain("hero_title");
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(offSite)("%s is named by no page, component, layout, public island or page helper", (key) => {
    const naming = files.filter(({ text }) => new RegExp(`\\b${key}\\b`).test(text)).map(({ file }) => file);
    expect(naming).toEqual([]);
  });
});
