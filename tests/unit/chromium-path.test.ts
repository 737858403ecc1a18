import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chromiumPath, findChromium, MissingChromiumError, type ChromiumLookup } from "../support/chromium-path.ts";

// Real files in a scratch folder stand in for the browsers: the finder checks them as it would
// the real ones (an executable file), and only PATH, the environment and Playwright's browser
// location are the test's own.
let root: string;
let bin: string;
let usrBin: string;
let playwrightChromium: string;

async function executable(file: string, mode = 0o755): Promise<string> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, "#!/bin/sh\n");
  await chmod(file, mode);
  return file;
}

function lookup(overrides: Partial<ChromiumLookup> = {}): ChromiumLookup {
  return {
    env: { PATH: [bin, usrBin].join(":") },
    playwrightChromium,
    platform: "linux",
    root: false,
    downloadReachable: () => true,
    ...overrides,
  };
}

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), "nf-chromium-path-"));
  bin = path.join(root, "bin");
  usrBin = path.join(root, "usr-bin");
  await mkdir(bin);
  await mkdir(usrBin);
  playwrightChromium = path.join(root, "ms-playwright", "chromium-1255", "chrome-linux64", "chrome");
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("findChromium", () => {
  it("takes PLAYWRIGHT_CHROMIUM_PATH before Playwright's Chromium and the system's", async () => {
    const configured = await executable(path.join(root, "my-chrome"));
    await executable(playwrightChromium);
    await executable(path.join(bin, "chromium"));
    const env = { PATH: bin, PLAYWRIGHT_CHROMIUM_PATH: configured };
    expect(findChromium(lookup({ env }))).toEqual({ path: configured, source: "PLAYWRIGHT_CHROMIUM_PATH" });
  });

  it("takes Playwright's Chromium before a system one", async () => {
    await executable(playwrightChromium);
    await executable(path.join(bin, "chromium"));
    expect(findChromium(lookup())).toEqual({ path: playwrightChromium, source: "Playwright" });
  });

  it("then takes chromium, chromium-browser and google-chrome on PATH, in that order", async () => {
    const chrome = await executable(path.join(bin, "google-chrome"));
    expect(findChromium(lookup())).toEqual({ path: chrome, source: "PATH" });
    const browser = await executable(path.join(usrBin, "chromium-browser"));
    expect(findChromium(lookup())?.path).toBe(browser);
    // The name outranks the folder: a `chromium` later on PATH beats a `chromium-browser` earlier.
    await executable(path.join(bin, "chromium-browser"));
    const chromium = await executable(path.join(usrBin, "chromium"));
    expect(findChromium(lookup())?.path).toBe(chromium);
  });

  it("gives the browser tests Debian's headless shell before the full browser, and Lighthouse the full browser", async () => {
    const full = await executable(path.join(bin, "chromium"));
    const shell = await executable(path.join(usrBin, "chromium-headless-shell"));
    expect(findChromium(lookup(), "tests")).toEqual({ path: shell, source: "PATH" });
    expect(findChromium(lookup(), "full")).toEqual({ path: full, source: "PATH" });
    expect(findChromium(lookup())?.path).toBe(full);
    // Without a shell the tests take the full browser; Playwright's own Chromium still comes first.
    await rm(shell);
    expect(findChromium(lookup(), "tests")?.path).toBe(full);
    await executable(playwrightChromium);
    await executable(shell);
    expect(findChromium(lookup(), "tests")?.path).toBe(playwrightChromium);
  });

  it("passes over files that are not executable and folders", async () => {
    await executable(playwrightChromium, 0o644);
    await mkdir(path.join(bin, "chromium"));
    await executable(path.join(usrBin, "chromium"), 0o644);
    const chrome = await executable(path.join(usrBin, "google-chrome"));
    expect(findChromium(lookup())?.path).toBe(chrome);
  });

  it("reports a PLAYWRIGHT_CHROMIUM_PATH that leads nowhere instead of picking another browser", async () => {
    await executable(playwrightChromium);
    const env = { PATH: bin, PLAYWRIGHT_CHROMIUM_PATH: path.join(root, "missing") };
    expect(() => findChromium(lookup({ env }))).toThrow(/^PLAYWRIGHT_CHROMIUM_PATH=.*missing is not an executable file/);
  });

  it("finds nothing when there is nothing", () => {
    expect(findChromium(lookup())).toBeUndefined();
  });
});

describe("chromiumPath with no Chromium", () => {
  const failure = (overrides: Partial<ChromiumLookup>) => {
    try {
      chromiumPath(lookup(overrides));
    } catch (error) {
      expect(error).toBeInstanceOf(MissingChromiumError);
      return (error as Error).message;
    }
    throw new Error("expected no Chromium");
  };

  it("gives Playwright's install command when its download is reachable", () => {
    expect(failure({ platform: "darwin" })).toBe(
      "No Chromium for the browser tests: run `npx playwright install chromium`, or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium",
    );
  });

  it("adds the system libraries on Debian and Ubuntu", async () => {
    await executable(path.join(usrBin, "apt-get"));
    expect(failure({})).toContain("run `npx playwright install --with-deps chromium`");
  });

  it("gives the system package when the download is not reachable, as on our CI machines", async () => {
    await executable(path.join(usrBin, "apt-get"));
    expect(failure({ downloadReachable: () => false, root: true })).toBe(
      "No Chromium for the browser tests: run `apt-get install chromium` (Playwright's browser download is not reachable from here), or set PLAYWRIGHT_CHROMIUM_PATH to a Chromium",
    );
    expect(failure({ downloadReachable: () => false })).toContain("run `sudo apt-get install chromium`");
  });

  it("is one line", () => {
    expect(failure({ downloadReachable: () => false })).not.toContain("\n");
  });
});
