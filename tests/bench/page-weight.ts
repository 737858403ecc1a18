import { gzipSync } from "node:zlib";

/** Bytes of one page, gzipped as a CDN would send them. */
export interface PageWeight {
  path: string;
  html: number;
  css: number;
  /** Every script this page can load: its own and the code of the islands it holds. */
  jsTotal: number;
  /** Scripts that run at load: the page's own `<script src>` and their static imports. */
  jsBeforeInteraction: number;
  /** The script files loaded at load time (for messages). */
  eagerScripts: string[];
  /** Every script file this page can load (for messages). */
  allScripts: string[];
}

type Fetch = (path: string) => Promise<string>;

const gz = (text: string) => gzipSync(text).byteLength;
const resolve = (file: string, from: string) => new URL(file, new URL(from, "http://x")).pathname;

/** Static `import … from "./x.js"` (and bare `import "./x.js"`) of a built chunk, resolved. */
function staticImports(code: string, from: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:import|export)\s*(?:[\w*{}\s,$]+from\s*)?["'`]([^"'`]+\.js)["'`]/g)) {
    found.add(resolve(match[1] ?? "", from));
  }
  return [...found];
}

interface DynamicImport {
  /** The object key the import sits under (`Toaster: () => import(…)`), when there is one. */
  key: string | undefined;
  files: string[];
}

/**
 * Dynamic imports of a built chunk, resolved, each with the chunks Vite preloads with it
 * (`__vite__mapDeps([i, …])`, indexes into a list of site-root paths). The island loader keeps its
 * imports in a map keyed by island name, so the key tells which island an import belongs to.
 */
function dynamicImports(code: string, from: string): DynamicImport[] {
  const mapDeps = /__vite__mapDeps=[^[]*\[([^\]]*)\]/.exec(code)?.[1] ?? "";
  const depList = [...mapDeps.matchAll(/["'`]([^"'`]+\.js)["'`]/g)].map((match) => `/${(match[1] ?? "").replace(/^\//, "")}`);
  const found: DynamicImport[] = [];
  const imports = [...code.matchAll(/(?:([A-Za-z_$][\w$]*):\(\)=>)?[^,;{}]{0,40}?import\(\s*["'`]([^"'`]+\.js)["'`]\s*\)/g)];
  imports.forEach((match, index) => {
    // The preload list follows its import, before the next import or statement.
    const end = Math.min(imports[index + 1]?.index ?? code.length, code.indexOf(";", match.index) >>> 0);
    const indexes = /__vite__mapDeps\(\[([\d,]*)\]\)/.exec(code.slice(match.index, end))?.[1] ?? "";
    const deps = indexes
      .split(",")
      .filter(Boolean)
      .map((i) => depList[Number(i)] ?? "");
    found.push({ key: match[1], files: [resolve(match[2] ?? "", from), ...deps.filter(Boolean)] });
  });
  return found;
}

/**
 * Measures a page by fetching it and everything it references: HTML, CSS and its JS graph.
 * - Before interaction: the page's `<script src>` and their static imports.
 * - In total, also what the island loader can fetch for this page: a dynamic import keyed by an
 *   island name counts only when that island is on the page, and an unkeyed one (React's runtime)
 *   only when the code of an island on the page imports part of it, as a React island does.
 */
export async function measurePage(fetchText: Fetch, path: string): Promise<PageWeight> {
  const html = await fetchText(path);
  const cssFiles = [...html.matchAll(/<link[^>]+rel="stylesheet"[^>]+href="([^"]+)"/g)].map((match) => match[1] ?? "");
  const entryScripts = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((match) => match[1] ?? "");
  const islandsHere = new Set([...html.matchAll(/data-island="([^"]+)"/g)].map((match) => match[1] ?? ""));
  const code = new Map<string, string>();
  const load = async (file: string) => {
    if (!code.has(file)) code.set(file, await fetchText(file));
    return code.get(file) ?? "";
  };
  const closure = async (files: string[], into = new Set<string>()): Promise<Set<string>> => {
    for (const file of files) {
      if (into.has(file)) continue;
      into.add(file);
      await closure(staticImports(await load(file), file), into);
    }
    return into;
  };
  const eager = await closure(entryScripts);
  const all = new Set(eager);
  const unkeyed: string[][] = [];
  // Island code may import dynamically too: follow every file once.
  const followed = new Set<string>();
  for (let todo = [...all]; todo.length > 0; todo = [...all].filter((file) => !followed.has(file))) {
    for (const file of todo) {
      followed.add(file);
      for (const { key, files } of dynamicImports(await load(file), file)) {
        if (key === undefined) unkeyed.push(files);
        else if (islandsHere.has(key)) await closure(files, all);
      }
    }
  }
  const islandCode = [...all].filter((file) => !eager.has(file));
  for (const files of unkeyed) {
    if (files.some((file) => islandCode.includes(file))) await closure(files, all);
  }
  let css = 0;
  for (const file of cssFiles) css += gz(await fetchText(file));
  const sum = (files: Iterable<string>) => [...files].reduce((total, file) => total + gz(code.get(file) ?? ""), 0);
  return {
    path,
    html: gz(html),
    css,
    jsTotal: sum(all),
    jsBeforeInteraction: sum(eager),
    eagerScripts: [...eager],
    allScripts: [...all],
  };
}
