import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, test } from "vitest";

// The lint config's import boundaries, checked on small in-memory files placed under the folders
// they guard: a rule nobody saw fire is not a rule.
const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const boundaryRules = new Set(["@typescript-eslint/no-restricted-imports", "no-restricted-syntax"]);

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

describe("islands never import server values", () => {
  const island = "src/islands/admin/boundary-probe.tsx";

  test.each([
    [
      "a service",
      `import { listPosts } from "../../core/posts/posts.service.ts";\nexport const f = listPosts;`,
      /services and handlers are server code/,
    ],
    ["a handlers module", `import { handlers } from "../../api/routes/posts.handlers.ts";\nexport const f = handlers;`, /services and handlers/],
    ["database code", `import { applyMigrations } from "../../core/db/migrations.ts";\nexport const f = applyMigrations;`, /database code/],
    ["an adapter", `import { blobsFileStore } from "../../adapters/blobs-file-store.ts";\nexport const f = blobsFileStore;`, /adapters/],
    ["auth code", `import { logIn } from "../../core/auth/login.ts";\nexport const f = logIn;`, /only auth schemas/],
    ["the server environment", `import { readServerEnv } from "../../config/server-env.ts";\nexport const f = readServerEnv;`, /server environment/],
    ["a node: module", `import { randomBytes } from "node:crypto";\nexport const f = randomBytes;`, /server-only/],
    ["a server package", `import sanitizeHtml from "sanitize-html";\nexport const f = sanitizeHtml;`, /server-only/],
    [
      "the passkey server library",
      `import { verifyRegistrationResponse } from "@simplewebauthn/server";\nexport const f = verifyRegistrationResponse;`,
      /server-only/,
    ],
    ["a lazily loaded server module", `export const load = () => import("../../core/db/connect.ts");`, /database code/],
  ])("%s is refused", async (_what, source, message) => {
    const errors = await boundaryErrors(island, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  test.each([
    ["a type from a service", `import type { Post } from "../../core/posts/posts.service.ts";\nexport type P = Post;`],
    ["an auth schema", `import { loginSchema } from "../../core/auth/login.schema.ts";\nexport const s = loginSchema;`],
    ["a schema", `import { postInputSchema } from "../../core/posts/post.schema.ts";\nexport const s = postInputSchema;`],
    ["a route declaration", `import { postRoutes } from "../../api/routes/posts.routes.ts";\nexport const r = postRoutes;`],
    ["browser packages", `import { useState } from "react";\nimport { z } from "zod";\nexport const f = [useState, z];`],
  ])("%s is allowed", async (_what, source) => {
    expect(await boundaryErrors(island, source)).toEqual([]);
  });

  test("an island's test may import server code (tests run on the server)", async () => {
    const source = `import { sanitizePostHtml } from "../../core/posts/sanitize-post-html.ts";\nimport { readForm } from "../../api/forms.ts";\nexport const f = [sanitizePostHtml, readForm];`;
    expect(await boundaryErrors("src/islands/admin/boundary-probe.test.ts", source)).toEqual([]);
  });
});

describe("src/core imports nothing from the API, Netlify, drivers, adapters or Astro", () => {
  const core = "src/core/posts/boundary-probe.ts";

  test.each([
    ["the API", `import { readForm } from "../../api/forms.ts";\nexport const f = readForm;`, /nothing from the API or netlify/],
    ["netlify/", `import { buildSite } from "../../../netlify/build.ts";\nexport const f = buildSite;`, /nothing from the API or netlify/],
    [
      "an adapter",
      `import { blobsFileStore } from "../../adapters/blobs-file-store.ts";\nexport const f = blobsFileStore;`,
      /receives adapters as dependencies/,
    ],
    ["@netlify/blobs", `import { getStore } from "@netlify/blobs";\nexport const f = getStore;`, /belong in src\/adapters/],
    ["a type from pg", `import type { Pool } from "pg";\nexport type P = Pool;`, /belong in src\/adapters/],
    ["a lazily loaded driver", `export const load = () => import("@neondatabase/serverless");`, /belong in src\/adapters/],
    ["Astro", `import { getCollection } from "astro:content";\nexport const f = getCollection;`, /no Astro imports/],
  ])("%s is refused", async (_what, source, message) => {
    const errors = await boundaryErrors(core, source);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(message);
  });

  test("libraries, node: modules and other domain modules are allowed", async () => {
    const source = `import { readFile } from "node:fs/promises";\nimport sanitizeHtml from "sanitize-html";\nimport { z } from "zod";\nimport { NotFoundError } from "../errors.ts";\nexport const f = [readFile, sanitizeHtml, z, NotFoundError];`;
    expect(await boundaryErrors(core, source)).toEqual([]);
  });

  test("a domain test may wire real adapters", async () => {
    const source = `import { PGlite } from "@electric-sql/pglite";\nimport { createTestApp } from "../../../tests/support/test-app.ts";\nexport const f = [PGlite, createTestApp];`;
    expect(await boundaryErrors("src/core/posts/boundary-probe.test.ts", source)).toEqual([]);
  });
});
