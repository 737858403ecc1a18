import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { deltaPostLimit, fullBuildReason, keepDeploy, keptSiteDir, readKeptStamp, type KeptStamp } from "./last-deploy.ts";

// When a Netlify build may start from the kept deploy; the builds themselves are in netlify/build.test.ts.
describe("the kept deploy", () => {
  let root: string;
  const stamp: KeptStamp = { code: "abc", changed: ["/blog/a"], removed: [] };

  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-last-deploy-"));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function keptFolder(): Promise<string> {
    const site = path.join(root, "site-out");
    const keys = path.join(root, "keys-out");
    await mkdir(path.join(site, "blog", "a"), { recursive: true });
    await mkdir(keys, { recursive: true });
    await writeFile(path.join(site, "index.html"), "home");
    await writeFile(path.join(site, "blog", "a", "index.html"), "a");
    await writeFile(path.join(keys, "post.json"), "{}");
    const dir = path.join(root, "keep");
    await keepDeploy(dir, site, keys, stamp);
    return dir;
  }

  it("is read back whole, its files shared with the output rather than copied", async () => {
    const dir = await keptFolder();
    expect(await readKeptStamp(dir)).toEqual(stamp);
    const [kept, out] = await Promise.all([
      stat(path.join(keptSiteDir(dir), "blog", "a", "index.html")),
      stat(path.join(root, "site-out", "blog", "a", "index.html")),
    ]);
    expect(kept.ino).toBe(out.ino);
  });

  it("is not read when part of it is missing: its stamp, its output or its keys", async () => {
    for (const part of ["stamp.json", path.join("site", "index.html"), path.join("keys", "post.json")]) {
      const dir = await keptFolder();
      await rm(path.join(dir, part));
      expect(await readKeptStamp(dir), part).toBeUndefined();
    }
  });

  it("gives a full build without a kept deploy, for another code or configuration, or when forced", () => {
    expect(fullBuildReason(stamp, "abc", {})).toBeUndefined();
    expect(fullBuildReason(undefined, "abc", {})).toBe("no kept deploy");
    expect(fullBuildReason(stamp, "def", {})).toBe("another commit or configuration than the kept deploy's");
    expect(fullBuildReason(stamp, "abc", { SITE_BUILD_FULL: "1" })).toBe("SITE_BUILD_FULL is set");
  });

  it("folds the search's delta back past 100 posts unless told another limit", () => {
    expect(deltaPostLimit({})).toBe(100);
    expect(deltaPostLimit({ SITE_BUILD_DELTA_POSTS: "0" })).toBe(0);
    expect(deltaPostLimit({ SITE_BUILD_DELTA_POSTS: "" })).toBe(100);
    expect(deltaPostLimit({ SITE_BUILD_DELTA_POSTS: "many" })).toBe(100);
  });
});
