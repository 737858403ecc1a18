import { gzipSync } from "node:zlib";

/** Bytes of one page, gzipped as a CDN would send them. */
export interface PageWeight {
  path: string;
  html: number;
  css: number;
  /** Every script the page can load, islands included. */
  jsTotal: number;
  /** Scripts that run at load: the page's own `<script src>` and their static imports. */
  jsBeforeInteraction: number;
  /** The script files loaded at load time (for messages). */
  eagerScripts: string[];
}

type Fetch = (path: string) => Promise<string>;

const gz = (text: string) => gzipSync(text).byteLength;

/** Static `import … from "./x.js"` (and bare `import "./x.js"`) of a built chunk, resolved. */
function staticImports(code: string, from: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+\.js)["'`]/g)) {
    found.add(new URL(match[1] ?? "", new URL(from, "http://x")).pathname);
  }
  return [...found];
}

/**
 * Dynamic imports of a built chunk, resolved: `import("./x.js")` and the chunks Vite lists in
 * `__vite__mapDeps` (site-root paths such as `_astro/x.js`) to preload with them.
 */
function dynamicImports(code: string, from: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)) {
    found.add(new URL(match[1] ?? "", new URL(from, "http://x")).pathname);
  }
  const mapDeps = /__vite__mapDeps=[^[]*\[([^\]]*)\]/.exec(code)?.[1] ?? "";
  for (const match of mapDeps.matchAll(/["'`]([^"'`]+\.js)["'`]/g)) found.add(`/${(match[1] ?? "").replace(/^\//, "")}`);
  return [...found];
}

/** Measures a page by fetching it and everything it references (HTML, CSS, the JS graph). */
export async function measurePage(fetchText: Fetch, path: string): Promise<PageWeight> {
  const html = await fetchText(path);
  const cssFiles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1] ?? "");
  const entryScripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1] ?? "");
  const code = new Map<string, string>();
  const load = async (file: string) => {
    if (!code.has(file)) code.set(file, await fetchText(file));
    return code.get(file) ?? "";
  };
  const eager = new Set<string>();
  const walk = async (file: string, isEager: boolean, seen: Set<string>) => {
    if (seen.has(file)) return;
    seen.add(file);
    if (isEager) eager.add(file);
    const text = await load(file);
    for (const next of staticImports(text, file)) await walk(next, isEager, seen);
    for (const next of dynamicImports(text, file)) await walk(next, false, seen);
  };
  const seenEager = new Set<string>();
  for (const entry of entryScripts) await walk(entry, true, seenEager);
  let css = 0;
  for (const file of cssFiles) css += gz(await fetchText(file));
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gz(code.get(file) ?? ""), 0);
  return {
    path,
    html: gz(html),
    css,
    jsTotal: sum(code.keys()),
    jsBeforeInteraction: sum(eager),
    eagerScripts: [...eager],
  };
}
