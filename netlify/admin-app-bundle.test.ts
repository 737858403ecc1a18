import { mkdtemp, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { sourceKey } from "./admin-app-bundle.ts";

describe("the dashboard bundle's cache key", () => {
  let root = "";
  afterEach(() => rm(root, { recursive: true, force: true }));

  it("stays while the code stays, and changes with any source file or the lockfile", async () => {
    root = await mkdtemp(path.join(tmpdir(), "nf-admin-key-"));
    await mkdir(path.join(root, "src", "islands"), { recursive: true });
    await writeFile(path.join(root, "src", "islands", "a.tsx"), "export const a = 1;");
    await writeFile(path.join(root, "package-lock.json"), "{}");
    const first = await sourceKey(root);
    expect(await sourceKey(root)).toBe(first);

    await writeFile(path.join(root, "src", "islands", "a.tsx"), "export const a = 2;");
    const edited = await sourceKey(root);
    expect(edited).not.toBe(first);

    await writeFile(path.join(root, "package-lock.json"), '{"v":2}');
    expect(await sourceKey(root)).not.toBe(edited);
  });
});
