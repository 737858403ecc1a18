import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

export { demoPosts, type DemoPost } from "./posts.ts";
export { demoResources, type DemoResource } from "./resources.ts";

/** The real files behind the demo content (covers, thumbnails, PDF, DOCX, XLSX, ZIP). */
export const demoFilesDir = fileURLToPath(new URL("./files/", import.meta.url));

export async function readDemoFile(name: string): Promise<Uint8Array<ArrayBuffer>> {
  return new Uint8Array(await readFile(new URL(name, `file://${demoFilesDir}`)));
}
