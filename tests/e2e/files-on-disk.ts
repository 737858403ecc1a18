import { truncate, writeFile } from "node:fs/promises";
import type { TestInfo } from "@playwright/test";

/**
 * A file for `setInputFiles` in the test's output folder: `contents`, or that many zero bytes. The
 * browser here is local, so Playwright hands it the path; a buffer crosses the protocol as base64
 * (a 25 MB one took 20 s of a 23 s test in a full run). The type comes from the name's extension.
 */
export async function fileOnDisk(testInfo: TestInfo, name: string, contents: number | Uint8Array): Promise<string> {
  const file = testInfo.outputPath(name);
  if (typeof contents === "number") {
    await writeFile(file, "");
    await truncate(file, contents);
  } else {
    await writeFile(file, contents);
  }
  return file;
}
