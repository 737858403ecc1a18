import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, test } from "vitest";

// CONTRIBUTING.md is the map of the code, and each room's README.md holds the room's detail. A map
// nobody checks drifts, so every folder under src/ and netlify/ must be named, as a path in
// backticks (`src/core/auth/`), in CONTRIBUTING.md or in the README.md of a folder above it or its own.
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const mappedRoots = ["src", "netlify"];
/** Folders no one writes by hand: installed packages and build output. Dot-folders are skipped too. */
const generatedFolders = new Set(["node_modules", "dist"]);

/** Every folder under `roots` (relative to `base`, `/`-separated, no trailing slash), roots included. */
function foldersUnder(base: string, roots: string[]): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    found.push(relative);
    for (const entry of readdirSync(path.join(base, relative), { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith(".") || generatedFolders.has(entry.name)) continue;
      walk(`${relative}/${entry.name}`);
    }
  };
  for (const root of roots) walk(root);
  return found.sort();
}

/**
 * The paths a Markdown text names in inline code (`like/this/`), without their trailing slash.
 * Fenced code blocks are left out: the overview tree there is a picture, the tables are the map.
 */
function pathsNamedIn(markdown: string): Set<string> {
  const withoutFences = markdown.replace(/^```[^\n]*\n[\s\S]*?^```[^\n]*$/gm, "");
  return new Set([...withoutFences.matchAll(/`([^`\n]+)`/g)].map((match) => (match[1] as string).trim().replace(/\/+$/, "")));
}

/** The folders `markdown` does not name. */
function foldersMissingFrom(markdown: string, folders: string[]): string[] {
  const named = pathsNamedIn(markdown);
  return folders.filter((folder) => !named.has(folder));
}

/** The folders named neither in `map` nor in a README.md (by `readmeOf`) of the folder or a folder above it. */
function foldersUndocumented(map: string, folders: string[], readmeOf: (folder: string) => string | undefined): string[] {
  return foldersMissingFrom(map, folders).filter((folder) => {
    const parts = folder.split("/");
    for (let depth = parts.length; depth > 0; depth -= 1) {
      const readme = readmeOf(parts.slice(0, depth).join("/"));
      if (readme && pathsNamedIn(readme).has(folder)) return false;
    }
    return true;
  });
}

test("every folder under src/ and netlify/ is named in CONTRIBUTING.md or its room's README.md", () => {
  const map = readFileSync(path.join(projectRoot, "CONTRIBUTING.md"), "utf8");
  const readmeOf = (folder: string) => {
    const file = path.join(projectRoot, folder, "README.md");
    return existsSync(file) ? readFileSync(file, "utf8") : undefined;
  };
  const missing = foldersUndocumented(map, foldersUnder(projectRoot, mappedRoots), readmeOf);
  expect(
    missing,
    `Add a line to CONTRIBUTING.md's rooms or the room's README.md for each of: ${missing.map((folder) => `\`${folder}/\``).join(", ")}`,
  ).toEqual([]);
});

test("a folder named only in another room's README.md, or in a README.md below it, is undocumented", () => {
  const readmes: Record<string, string> = {
    "src/core": "| `src/core/auth/` | the login |",
    "src/api": "| `src/core/posts/` | named in the wrong room |",
    "src/core/stats/deeper": "`src/core/stats/` named from below",
  };
  const folders = ["src/core/auth", "src/core/posts", "src/core/stats"];
  expect(foldersUndocumented("", folders, (folder) => readmes[folder])).toEqual(["src/core/posts", "src/core/stats"]);
});

describe("the map check fires", () => {
  test("a folder named only in prose, only in a fenced block, or only as a longer path is missing", () => {
    const map = [
      "| `src/core/auth/` | the login |",
      "| `netlify/local/demo-content/files` | demo files |",
      "The src/core/brand-new folder is named here without backticks.",
      "```",
      "src/core/fenced/   only in the overview tree",
      "```",
      "`src/core/longer-name/` is another folder, and `src/api/routes/downloads.routes.ts` a file.",
    ].join("\n");
    const folders = ["netlify/local/demo-content/files", "src/api", "src/core/auth", "src/core/brand-new", "src/core/fenced", "src/core/longer"];
    expect(foldersMissingFrom(map, folders)).toEqual(["src/api", "src/core/brand-new", "src/core/fenced", "src/core/longer"]);
  });

  describe("the walk finds nested folders and skips generated and dot-folders", () => {
    const scratch = mkdtempSync(path.join(tmpdir(), "nf-contributing-map-"));
    afterAll(() => rmSync(scratch, { recursive: true, force: true }));

    test("on a made-up tree", () => {
      for (const folder of [
        "src/core/new-feature/deeper",
        "src/pages/blog/[slug]",
        "src/node_modules/some-package",
        "src/.cache/anything",
        "netlify/functions",
        "netlify/dist/bundle",
        "tests/not-mapped",
      ]) {
        mkdirSync(path.join(scratch, folder), { recursive: true });
      }
      expect(foldersUnder(scratch, mappedRoots)).toEqual([
        "netlify",
        "netlify/functions",
        "src",
        "src/core",
        "src/core/new-feature",
        "src/core/new-feature/deeper",
        "src/pages",
        "src/pages/blog",
        "src/pages/blog/[slug]",
      ]);
    });
  });
});
