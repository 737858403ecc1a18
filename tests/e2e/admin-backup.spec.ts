import { createHash, randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import yazl from "yazl";
import type { Backup } from "../../src/core/backups/backup.schema.ts";
import { logIn, unique } from "./admin.ts";
import { toast } from "./islands.ts";

// Issue 32 / decision 0040: the dashboard downloads a backup part by part (on Netlify one function
// response is cut at 20 MB) and saves the parts as one file, byte for byte the whole-archive link's.

/** A real zip (the resource form sniffs it) of `bytes` random bytes, stored: it does not shrink in the backup. */
async function randomZip(bytes: number): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(randomBytes(bytes), "noise.bin", { compress: false });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

test("downloads a backup part by part from the dashboard and saves one file equal to the whole archive", async ({ page, baseURL }) => {
  test.setTimeout(180_000);
  await logIn(page);
  // Three resources of 3.5 MB: the archive passes 8 MB, so it is stored (and downloaded) in two parts.
  const created: number[] = [];
  for (let count = 0; count < 3; count++) {
    const answer = await page.request.post("/api/downloads", {
      headers: { origin: baseURL ?? "" },
      multipart: {
        title: unique(`Backup filler ${String(count)}`),
        description: "Random bytes, to make the backup two parts.",
        category: "Backups",
        file: { name: `filler-${String(count)}.zip`, mimeType: "application/zip", buffer: await randomZip(3.5 * 1024 * 1024) },
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    created.push(((await answer.json()) as { id: number }).id);
  }
  try {
    await page.getByRole("tab", { name: "Import & Backup" }).click();
    const panel = page.getByRole("region", { name: "Backups" });
    const listed = page.waitForResponse(
      async (response) =>
        response.url().endsWith("/api/backups") &&
        response.request().method() === "GET" &&
        ((await response.json()) as Backup[]).some((backup) => backup.status === "done" && backup.bytes !== null && backup.bytes > 8 * 1024 * 1024),
    );
    await panel.getByRole("button", { name: "Back Up Now" }).click();
    const [latest] = ((await (await listed).json()) as Backup[]).filter((backup) => backup.status === "done");
    expect(latest?.downloadUrl).toBeTruthy();

    // The plain link still answers the whole archive in one response.
    const whole = await page.request.get(latest?.downloadUrl ?? "");
    expect(whole.status()).toBe(200);
    expect(whole.headers()["x-backup-parts"]).toBe("2");
    const wholeBytes = await whole.body();

    // Part 2 waits until the page has said so: the progress is seen, not raced.
    let releasePart2 = () => {};
    const part2Held = new Promise<void>((resolve) => {
      releasePart2 = resolve;
    });
    const partsAsked: string[] = [];
    await page.route(/\/api\/backups\/\d+\/download\?/, async (route) => {
      const part = new URL(route.request().url()).searchParams.get("part") ?? "whole";
      partsAsked.push(part);
      if (part === "2") await part2Held;
      await route.continue();
    });

    const saved = page.waitForEvent("download");
    await panel.getByRole("listitem").first().getByRole("link", { name: "Download" }).click();
    await expect(panel.getByRole("status").filter({ hasText: "Downloading part 2 of 2…" })).toBeVisible();
    releasePart2();
    const download = await saved;
    expect(download.suggestedFilename()).toMatch(/^no-filter-backup-\d{4}-\d{2}-\d{2}-\d+\.zip$/);
    const savedBytes = await readFile(await download.path());
    expect(partsAsked).toEqual(["1", "2"]);
    expect(savedBytes.byteLength).toBe(wholeBytes.byteLength);
    expect(sha256(savedBytes)).toBe(sha256(wholeBytes));
    await expect(toast(page, "Backup Downloaded")).toBeVisible();
    await expect(panel.getByText(/Downloading part/)).toHaveCount(0);
  } finally {
    await page.unroute(/\/api\/backups\/\d+\/download\?/);
    for (const id of created) await page.request.delete(`/api/downloads/${String(id)}`, { headers: { origin: baseURL ?? "" } });
  }
});
