import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";

// The lint config's import boundaries, checked on small in-memory files placed under the folders
// they guard, and the import-cycle gate, checked on fixture folders: a rule nobody saw fire is not a rule.
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const boundaryRules = new Set([
  "boundaries/core",
  "boundaries/core-migrations-reader",
  "boundaries/islands",
  "rooms/api",
  "rooms/adapters",
  "rooms/lib",
  "rooms/lib-build-data",
  "rooms/functions",
  "rooms/local",
  "core-floor/imports",
  "route-declarations/imports",
]);

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({
    cwd: projectRoot,
    overrideConfigFile: ".config/eslint.config.js",
    // The probe files exist only in memory, which the type-aware project service cannot open;
    // the boundary rules need no types, so only they run.
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => boundaryRules.has(ruleId),
  });
});

/** The boundary messages ESLint reports for `source` as if it were the file at `path`. */
async function boundaryErrors(path: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${projectRoot}${path}` });
  if (!result) throw new Error(`ESLint returned no result for ${path}`);
  const fatal = result.messages.find((message) => message.fatal);
  if (fatal) throw new Error(`ESLint could not lint ${path}: ${fatal.message}`);
  return result.messages.map((message) => message.message);
}

describe("islands import only from their allow-list", () => {
  const island = "src/islands/admin/boundary-probe.tsx";

  test.each([
    [
      "a service",
      `import { listPosts } from "../../core/posts/posts.service.ts";\nexport const f = listPosts;`,
      /services and handlers are server code/,
    ],
    ["a handlers module", `import { handlers } from "../../api/routes/posts.handlers.ts";\nexport const f = handlers;`, /services and handlers/],
    ["database code", `import { applyMigrations } from "../../core/db/migrations.ts";\nexport const f = applyMigrations;`, /database or file-store/],
    [
      "an adapter",
      `import { blobsFileStore } from "../../adapters/blobs-file-store.ts";\nexport const f = blobsFileStore;`,
      /database or file-store/,
    ],
    [
      "auth code",
      `import { logIn } from "../../core/auth/login.ts";\nexport const f = logIn;`,
      /"src\/core\/auth\/login.ts" is not on the allow-list of src\/islands/,
    ],
    ["the server environment", `import { readServerEnv } from "../../config/server-env.ts";\nexport const f = readServerEnv;`, /server environment/],
    [
      "a build-time helper not on the list",
      `import { loadBuildData } from "../../lib/build-data.ts";\nexport const f = loadBuildData;`,
      /import only browser libraries/,
    ],
    ["a node: module", `import { randomBytes } from "node:crypto";\nexport const f = randomBytes;`, /server-only/],
    ["a server package", `import sanitizeHtml from "sanitize-html";\nexport const f = sanitizeHtml;`, /server-only/],
    [
      "the passkey server library",
      `import { verifyRegistrationResponse } from "@simplewebauthn/server";\nexport const f = verifyRegistrationResponse;`,
      /server-only/,
    ],
    ["a package nobody listed", `import { parse } from "cookie";\nexport const f = parse;`, /"cookie" is not on the allow-list of src\/islands/],
    ["a re-export of server code", `export { listPosts } from "../../core/posts/posts.service.ts";`, /services and handlers/],
    ["a lazily loaded server module", `export const load = () => import("../../core/db/connect.ts");`, /database or file-store/],
  ])("%s is refused", async (_what, source, message) => {
    const errors = await boundaryErrors(island, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  test.each([
    ["a type from a service", `import type { Post } from "../../core/posts/posts.service.ts";\nexport type P = Post;`],
    ["an inline type import from server code", `export type Deps = import("../../app/create-app.ts").AppParts;`],
    ["an auth schema", `import { loginSchema } from "../../core/auth/login.schema.ts";\nexport const s = loginSchema;`],
    ["a schema", `import { postInputSchema } from "../../core/posts/post.schema.ts";\nexport const s = postInputSchema;`],
    ["a route declaration", `import { postRoutes } from "../../api/routes/posts.routes.ts";\nexport const r = postRoutes;`],
    ["the API paths", `import { apiPaths } from "../../api/api-paths.ts";\nexport const p = apiPaths;`],
    [
      "shared texts and limits",
      `import { missingFileMessage } from "../../core/messages.ts";\nimport { maxFileBytes } from "../../core/files/upload-limits.ts";\nexport const f = [missingFileMessage, maxFileBytes];`,
    ],
    [
      "another island module",
      `import { callApi } from "./api-client.ts";\nimport { showToast } from "../public/toast.ts";\nexport const f = [callApi, showToast];`,
    ],
    [
      "browser packages",
      `import { useState } from "react";\nimport { createRoot } from "react-dom/client";\nimport * as Tabs from "@radix-ui/react-tabs";\nimport { useQuery } from "@tanstack/react-query";\nimport { useEditor } from "@tiptap/react";\nimport { startRegistration } from "@simplewebauthn/browser";\nimport { z } from "zod";\nexport const f = [useState, createRoot, Tabs, useQuery, useEditor, startRegistration, z];`,
    ],
  ])("%s is allowed", async (_what, source) => {
    expect(await boundaryErrors(island, source)).toEqual([]);
  });

  test("an island's test may import server code (tests run on the server)", async () => {
    const source = `import { sanitizePostHtml } from "../../core/posts/sanitize-post-html.ts";\nimport { readForm } from "../../api/forms.ts";\nexport const f = [sanitizePostHtml, readForm];`;
    expect(await boundaryErrors("src/islands/admin/boundary-probe.test.ts", source)).toEqual([]);
  });
});

describe("src/core imports only from its allow-list", () => {
  const core = "src/core/posts/boundary-probe.ts";

  test.each([
    ["the API", `import { readForm } from "../../api/forms.ts";\nexport const f = readForm;`, /the API and netlify\/ call the domain/],
    ["netlify/", `import { buildSite } from "../../../netlify/build.ts";\nexport const f = buildSite;`, /the API and netlify\/ call the domain/],
    [
      "an adapter",
      `import { blobsFileStore } from "../../adapters/blobs-file-store.ts";\nexport const f = blobsFileStore;`,
      /receives adapters and the app's parts as dependencies/,
    ],
    ["the app", `import { createApp } from "../../app/create-app.ts";\nexport const f = createApp;`, /composition root/],
    [
      "a type from the config",
      `import type { ServerEnv } from "../../config/server-env.ts";\nexport type E = ServerEnv;`,
      /"src\/config\/server-env.ts" .*reads no environment/,
    ],
    [
      "a page helper",
      `import { formatLongDate } from "../../lib/format-date.ts";\nexport const f = formatLongDate;`,
      /"src\/lib\/format-date.ts" is not on the allow-list of src\/core/,
    ],
    ["@netlify/blobs", `import { getStore } from "@netlify/blobs";\nexport const f = getStore;`, /belong in src\/adapters/],
    ["a type from pg", `import type { Pool } from "pg";\nexport type P = Pool;`, /belong in src\/adapters/],
    ["a lazily loaded driver", `export const load = () => import("@neondatabase/serverless");`, /belong in src\/adapters/],
    ["Astro", `import { getCollection } from "astro:content";\nexport const f = getCollection;`, /no Astro imports/],
    [
      "a package nobody listed",
      `import { parse } from "cookie";\nexport const f = parse;`,
      /"cookie" is not on the allow-list of src\/core: src\/core imports only zod/,
    ],
    ["the file system", `import { readFile } from "node:fs/promises";\nexport const f = readFile;`, /only the pure built-ins/],
    [
      "a socket from node:net",
      `import { createConnection } from "node:net";\nexport const f = createConnection;`,
      /only \{ isIP \}, \{ isIPv4 \}, \{ isIPv6 \}/,
    ],
    ["all of node:net", `import * as net from "node:net";\nexport const f = net;`, /only \{ isIP \}/],
    ["a re-export from outside", `export * from "../../api/forms.ts";`, /call the domain/],
  ])("%s is refused", async (_what, source, message) => {
    const errors = await boundaryErrors(core, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  test("zod, pure built-ins, the listed libraries and other domain modules are allowed", async () => {
    const source = [
      `import { createHmac } from "node:crypto";`,
      `import { isIPv4, isIPv6 } from "node:net";`,
      `import sanitizeHtml from "sanitize-html";`,
      `import { parse } from "csv-parse/sync";`,
      `import { render } from "@react-email/render";`,
      `import { createElement } from "react";`,
      `import { z } from "zod";`,
      `import { NotFoundError } from "../errors.ts";`,
      `import { slugSchema } from "./post-slug.ts";`,
      `export const f = [createHmac, isIPv4, isIPv6, sanitizeHtml, parse, render, createElement, z, NotFoundError, slugSchema];`,
    ].join("\n");
    expect(await boundaryErrors(core, source)).toEqual([]);
  });

  test("the migrations reader alone may read files, until it moves to an adapter", async () => {
    const source = `import { readdir } from "node:fs/promises";\nexport const f = readdir;`;
    expect(await boundaryErrors("src/core/db/migrations.ts", source)).toEqual([]);
    expect(await boundaryErrors("src/core/db/boundary-probe.ts", source)).toEqual([expect.stringMatching(/only the pure built-ins/)]);
  });

  test("a domain test may wire real adapters", async () => {
    const source = `import { PGlite } from "@electric-sql/pglite";\nimport { createTestApp } from "../../../tests/support/test-app.ts";\nexport const f = [PGlite, createTestApp];`;
    expect(await boundaryErrors("src/core/posts/boundary-probe.test.ts", source)).toEqual([]);
  });
});

describe("each room of the server imports only from its allow-list, and each refusal says why", () => {
  test.each([
    [
      "src/api/routes/probe.handlers.ts",
      "an adapter",
      `import { blobsFileStore } from "../../adapters/blobs-file-store.ts";\nexport const f = blobsFileStore;`,
      /reaches the real parts through AppDeps/,
    ],
    [
      "src/api/probe.ts",
      "the configuration",
      `import { readServerEnv } from "../config/server-env.ts";\nexport const f = readServerEnv;`,
      /reads no environment/,
    ],
    [
      "src/api/probe.ts",
      "the app's code",
      `import { createApp } from "../app/create-app.ts";\nexport const f = createApp;`,
      /composition root above it/,
    ],
    ["src/api/probe.ts", "a driver", `import pg from "pg";\nexport const f = pg;`, /drivers and Netlify packages belong in src\/adapters/],
    ["src/adapters/probe.ts", "the app", `import { bootApp } from "../app/boot-app.ts";\nexport const f = bootApp;`, /knows nothing above it/],
    [
      "src/adapters/probe.ts",
      "a package nobody listed",
      `import { parse } from "cookie";\nexport const f = parse;`,
      /"cookie" is not on the allow-list of src\/adapters/,
    ],
    ["src/lib/probe.ts", "the app", `import { bootApp } from "../app/boot-app.ts";\nexport const f = bootApp;`, /only it boots the app/],
    ["src/lib/probe.ts", "a component", `import Island from "../components/Island.astro";\nexport const f = Island;`, /does not import them/],
    [
      "netlify/functions/probe.ts",
      "a domain function",
      `import { publishDuePosts } from "../../src/core/posts/posts.service.ts";\nexport const f = publishDuePosts;`,
      /a row of src\/app\/background-jobs.ts/,
    ],
    [
      "netlify/functions/probe.ts",
      "an adapter",
      `import { smtpMailer } from "../../src/adapters/smtp-mailer.ts";\nexport const f = smtpMailer;`,
      /entries boot the app/,
    ],
    [
      "netlify/functions/probe.ts",
      "a Netlify value, not a type",
      `import { schedule } from "@netlify/functions";\nexport const f = schedule;`,
      /only its types may be imported/,
    ],
    [
      "netlify/local/probe.ts",
      "a test helper",
      `import { createTestApp } from "../../tests/support/test-app.ts";\nexport const f = createTestApp;`,
      /test helpers belong in its \*\.test\.ts files only/,
    ],
    [
      "netlify/local/probe.ts",
      "a Netlify entry",
      `import run from "../functions/weekly-backup.ts";\nexport const f = run;`,
      /does not load Netlify's entries/,
    ],
  ])("%s: %s is refused", async (file, _what, source, message) => {
    const errors = await boundaryErrors(file, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  test.each([
    [
      "src/api/probe.ts",
      `import { z } from "zod";\nimport type { AppDeps } from "../app/app-deps.ts";\nimport { NotFoundError } from "../core/errors.ts";\nexport type D = AppDeps;\nexport const f = [z, NotFoundError];`,
    ],
    [
      "src/adapters/probe.ts",
      `import pg from "pg";\nimport { getStore } from "@netlify/blobs";\nimport { readFile } from "node:fs/promises";\nimport type { FileStore } from "../core/files/file-store.ts";\nexport type S = FileStore;\nexport const f = [pg, getStore, readFile];`,
    ],
    [
      "src/lib/build-data.ts",
      `import { bootApp } from "../app/boot-app.ts";\nimport { readServerEnv } from "../config/server-env.ts";\nexport const f = [bootApp, readServerEnv];`,
    ],
    [
      "netlify/functions/probe.ts",
      `import type { Config } from "@netlify/functions";\nimport { runScheduledFunction } from "../../src/app/background-jobs.ts";\nexport const config: Config = {};\nexport const f = runScheduledFunction;`,
    ],
    [
      "netlify/local/probe.ts",
      `import { createServer } from "node:http";\nimport { startTicker } from "./ticker.ts";\nimport { bootApp } from "../../src/app/boot-app.ts";\nexport const f = [createServer, startTicker, bootApp];`,
    ],
    ["netlify/local/probe.test.ts", `import { createTestApp } from "../../tests/support/test-app.ts";\nexport const f = createTestApp;`],
  ])("%s: what its room allows passes", async (file, source) => {
    expect(await boundaryErrors(file, source)).toEqual([]);
  });
});

// The map's "may import" column for these rooms is what their policies allow, so prose and rule cannot disagree.
interface RoomPolicies {
  roomPolicies: Record<string, object>;
  mayImport: (policy: object) => string;
}

/** The "may import" cell of `room`'s row in a Markdown table whose last column is "may import". */
function mayImportCell(markdown: string, room: string): string | undefined {
  const row = markdown.split("\n").find((line) => line.startsWith(`| \`${room}\``));
  return row
    ?.split("|")
    .map((cell) => cell.trim())
    .at(-2);
}

describe("CONTRIBUTING.md's \"may import\" column is the lint policies' own", () => {
  test("for every room with a policy", async () => {
    const { roomPolicies, mayImport } = (await import(`${projectRoot}.config/eslint.config.js`)) as RoomPolicies;
    const map = readFileSync(`${projectRoot}CONTRIBUTING.md`, "utf8");
    expect(Object.keys(roomPolicies)).toEqual(
      expect.arrayContaining(["src/api/", "src/adapters/", "src/lib/", "netlify/functions/", "netlify/local/"]),
    );
    for (const [room, policy] of Object.entries(roomPolicies)) expect(mayImportCell(map, room), room).toBe(mayImport(policy));
  });

  test("a cell that says more or less than its policy is caught", async () => {
    const { roomPolicies, mayImport } = (await import(`${projectRoot}.config/eslint.config.js`)) as RoomPolicies;
    const api = roomPolicies["src/api/"] as object;
    const map = `| room | what | may import |\n| --- | --- | --- |\n| \`src/api/\` | the API | ${mayImport(api)}, \`src/adapters/\` |`;
    expect(mayImportCell(map, "src/api/")).not.toBe(mayImport(api));
  });
});

// ESLint's import-x/no-cycle skips `import type` edges, and a cycle of types still ties the files
// together (the AppDeps cycle of issue 25 was one), so madge, which follows them, is the gate.
interface MadgeGraph {
  circular(): string[][];
  warnings(): { skipped: string[] };
}
type Madge = (paths: string[], config: Record<string, unknown>) => Promise<MadgeGraph>;
const madge = createRequire(import.meta.url)("madge") as Madge;

/** The import graph of `paths` (relative to `baseDir`), type imports and `import()` included. */
function importGraph(baseDir: string, paths: string[]): Promise<MadgeGraph> {
  const detective = { skipTypeImports: false, skipAsyncImports: false };
  return madge(
    paths.map((path) => `${baseDir}${path}`),
    { baseDir, fileExtensions: ["ts", "tsx"], detectiveOptions: { ts: detective, tsx: detective } },
  );
}

describe("no import cycles", () => {
  const fixtures = fileURLToPath(new URL("import-cycle-fixtures/", import.meta.url));

  // Parses every file of src/ and netlify/, which takes seconds on a loaded machine (docs/decisions/0021-import-gates.md).
  test("src/ and netlify/ have none, type imports included", async () => {
    const graph = await importGraph(projectRoot, ["src", "netlify"]);
    // An import madge cannot resolve is an edge it cannot follow: only packages may be skipped.
    expect(graph.warnings().skipped.filter((skipped) => skipped.startsWith("."))).toEqual([]);
    expect(graph.circular()).toEqual([]);
  }, 60_000);

  test("a cycle of values is found", async () => {
    const graph = await importGraph(fixtures, ["value-cycle"]);
    expect(graph.circular()).toEqual([["value-cycle/draft.ts", "value-cycle/publish.ts", "value-cycle/notify.ts"]]);
  });

  test("a cycle of `import type` is found", async () => {
    const graph = await importGraph(fixtures, ["type-cycle"]);
    expect(graph.circular()).toEqual([["type-cycle/app-deps.ts", "type-cycle/sender.ts"]]);
  });

  test("a shared needs file imported from two sides is no cycle", async () => {
    const graph = await importGraph(fixtures, ["no-cycle"]);
    expect(graph.circular()).toEqual([]);
  });
});

describe("the floor of src/core (shared, db, mail, files) imports no feature folder", () => {
  test.each([
    [
      "mail a feature's renderer",
      "src/core/mail/boundary-probe.ts",
      `import { renderTestEmail } from "../newsletter/newsletter-test-send.ts";\nexport const f = renderTestEmail;`,
    ],
    [
      "mail a type from a feature",
      "src/core/mail/boundary-probe.ts",
      `import type { MailDeps } from "../subscribers/subscription-emails.ts";\nexport type M = MailDeps;`,
    ],
    ["shared a feature's type", "src/core/shared/boundary-probe.ts", `import type { Post } from "../posts/posts.service.ts";\nexport type P = Post;`],
    ["db a feature", "src/core/db/boundary-probe.ts", `export const load = () => import("../stats/rollups.ts");`],
    ["files a feature", "src/core/files/boundary-probe.ts", `export { listPosts } from "../posts/posts.service.ts";`],
  ])("%s is refused", async (_what, path, source) => {
    const errors = await boundaryErrors(path, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/is not on the allow-list of src\/core\/\{shared,db,mail,files\}: .*import no feature folder/);
  });

  test("the floor's own folders, the core's errors and messages, and mail's site settings are allowed", async () => {
    const source = [
      `import { NotFoundError } from "../errors.ts";`,
      `import { resourceGoneMessage } from "../messages.ts";`,
      `import type { SqlQueryable } from "../db/sql-executor.ts";`,
      `import { escapeHtml } from "../shared/escape-html.ts";`,
      `import { maxImageEdge } from "../files/image-sizes.ts";`,
      `import { siteSettingValues } from "../settings/settings.service.ts";`,
      `import { enqueueMail } from "./outbox.ts";`,
      `export const f = [NotFoundError, resourceGoneMessage, escapeHtml, maxImageEdge, siteSettingValues, enqueueMail];`,
      `export type Q = SqlQueryable;`,
    ].join("\n");
    expect(await boundaryErrors("src/core/mail/boundary-probe.ts", source)).toEqual([]);
  });

  test("a feature may import the floor and other features (the folder graph test names those edges)", async () => {
    const source = `import { unsubscribeUrl } from "../mail/person-mail.ts";\nimport { listPosts } from "../posts/posts.service.ts";\nexport const f = [unsubscribeUrl, listPosts];`;
    expect(await boundaryErrors("src/core/sequences/boundary-probe.ts", source)).toEqual([]);
  });
});

describe("route declarations, which the dashboard's client ships to the browser, import schemas and messages only", () => {
  test.each([
    ["a service's message", `import { getSequence } from "../../core/sequences/sequences.service.ts";\nexport const f = getSequence;`],
    ["server code beside its schemas", `import { startUpload } from "../../core/imports/chunked-uploads.ts";\nexport const f = startUpload;`],
    ["a handler", `export { tagsHandlers } from "./tags.handlers.ts";`],
  ])("%s is refused", async (_what, source) => {
    const errors = await boundaryErrors("src/api/routes/probe.routes.ts", source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/is not on the allow-list of src\/api\/routes\/\*\.routes\.ts: a route declaration ships to the browser/);
  });

  test("zod, a feature's schemas, messages, the paths and declareRoute are allowed, and types from anywhere", async () => {
    const source = [
      `import { z } from "zod";`,
      `import { uploadParams } from "../../core/imports/upload.schema.ts";`,
      `import { resourceGoneMessage } from "../../core/messages.ts";`,
      `import { apiPaths } from "../api-paths.ts";`,
      `import { declareRoute } from "../declare-route.ts";`,
      `import type { SequencesDeps } from "../../core/sequences/sequences.service.ts";`,
      `export const f = [z, uploadParams, resourceGoneMessage, apiPaths, declareRoute];`,
      `export type S = SequencesDeps;`,
    ].join("\n");
    expect(await boundaryErrors("src/api/routes/probe.routes.ts", source)).toEqual([]);
  });
});
