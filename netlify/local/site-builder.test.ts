import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SiteBuilder } from "./site-builder.ts";

// A stand-in for `astro build` (the real one is exercised by the browser tests): it writes an
// index.html saying which build it was, and fails while `fail` exists. It needs no pause: requests
// made while a build runs coalesce because the build is still running, however long it takes.
// Like Astro, it takes the project from --root and writes its server half (.prerender) under the
// working directory when the output is not inside it: the builder must run it where the output is.
const fakeAstro = `
import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
const root = process.argv[process.argv.indexOf("--root") + 1];
if (!process.env.ASTRO_OUT_DIR.startsWith(process.cwd() + path.sep)) { console.error("the output is outside the working directory: .prerender would go to " + process.cwd() + "/.astro"); process.exit(1); }
if (!process.env.ASTRO_CACHE_DIR) { console.error("no ASTRO_CACHE_DIR"); process.exit(1); }
appendFileSync(path.join(root, "builds.log"), "build\\n");
if (existsSync(path.join(root, "fail"))) { console.error("Broken page: boom"); process.exit(1); }
const count = (await import("node:fs")).readFileSync(path.join(root, "builds.log"), "utf8").trim().split("\\n").length;
mkdirSync(process.env.ASTRO_OUT_DIR, { recursive: true });
writeFileSync(path.join(process.env.ASTRO_OUT_DIR, "index.html"), "build " + count);
`;

let root: string;
let logs: string[];
let builder: SiteBuilder;
const page = () => readFile(path.join(root, "dist", "index.html"), "utf8");
const buildCount = async () => (await readFile(path.join(root, "builds.log"), "utf8")).trim().split("\n").length;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "nf-builder-"));
  await mkdir(path.join(root, "node_modules", "astro", "bin"), { recursive: true });
  await writeFile(path.join(root, "node_modules", "astro", "bin", "astro.mjs"), fakeAstro);
  logs = [];
  builder = new SiteBuilder({
    projectRoot: root,
    publishDir: path.join(root, "dist"),
    buildsDir: path.join(root, "state", "builds"),
    cacheDir: path.join(root, "state", "astro-cache"),
    env: process.env,
    log: (message) => logs.push(message),
    // The stand-in is a command: every build a separate `astro build` (the kept renderer: incremental-build.test.ts).
    keepRenderer: false,
  });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("SiteBuilder", () => {
  it("builds into a fresh folder and publishes it", async () => {
    expect(await builder.hasSite()).toBe(false);
    expect((await builder.request()).ok).toBe(true);
    expect(await builder.hasSite()).toBe(true);
    expect(await page()).toBe("build 1");
  });

  it("coalesces a burst of requests into one more build after the running one", async () => {
    const burst = await Promise.all([builder.request(), builder.request(), builder.request(), builder.request()]);
    expect(burst.every((result) => result.ok)).toBe(true);
    expect(await buildCount()).toBe(2);
    expect(await page()).toBe("build 2");
  });

  it("keeps the old site when a build fails, and says why", async () => {
    await builder.request();
    await writeFile(path.join(root, "fail"), "");
    const failed = await builder.request();
    expect(failed.ok).toBe(false);
    expect(await page()).toBe("build 1");
    expect(logs.join("\n")).toMatch(/failed[\s\S]*Broken page: boom/);
  });

  it("replaces a plain dist folder left by a manual build", async () => {
    await mkdir(path.join(root, "dist"));
    await writeFile(path.join(root, "dist", "index.html"), "manual");
    await builder.request();
    expect(await page()).toBe("build 1");
  });
});
