// Lint config (kept out of the top level; `npm run lint` passes it with --config).
import astro from "eslint-plugin-astro";
import globals from "globals";
import tseslint from "typescript-eslint";
import { fileURLToPath } from "node:url";
import { allowedImportsRule } from "./allowed-imports.js";

/**
 * Import boundaries as allow-lists: src/core and src/islands each name what they may import, and any
 * other import (a static import, a re-export, `import("…")`) is an error with its reason. Test files
 * are exempt: they wire real adapters and compare browser and server behaviour.
 * `tests/unit/import-boundaries.test.ts` checks that these rules fire; it also holds the import-cycle
 * gate (madge), because import-x/no-cycle skips `import type` edges and a cycle of types is a cycle.
 */
const projectRoot = fileURLToPath(new URL("..", import.meta.url));

/** A package and its subpaths (`react` and `react-dom/client`, not `react-router`). */
const pkg = (name) => new RegExp(String.raw`^${name.replaceAll("/", String.raw`\/`)}(\/|$)`);

/** The domain is plain TypeScript over what each feature declares it needs: pure libraries only. */
const corePolicy = {
  home: "src/core/",
  allowTypeImports: false,
  packages: [
    { pattern: /^zod$/ },
    // Pure built-ins: hashing, HMAC and random bytes; byte buffers; promisify and text codecs.
    { pattern: /^node:(crypto|buffer|util)$/ },
    // Only the address checks of node:net; its sockets are infrastructure.
    { pattern: /^node:net$/, names: ["isIP", "isIPv4", "isIPv6"] },
    // The libraries the domain computes with today, each pure over its input.
    { pattern: pkg("react") }, // createElement for the email templates
    { pattern: pkg("@react-email") }, // email templates rendered to HTML and text
    { pattern: pkg("sanitize-html") }, // post and email HTML cleaning
    { pattern: pkg("@sindresorhus/slugify") }, // post slugs
    { pattern: pkg("csv-parse") }, // subscriber import
    { pattern: pkg("csv-stringify") }, // subscriber export
    { pattern: pkg("file-type") }, // upload checks on a buffer's first bytes
    { pattern: pkg("sharp") }, // image cleaning, buffer to buffer
    { pattern: pkg("@simplewebauthn/server") }, // passkey ceremonies: challenge and signature checks
    { pattern: pkg("svix") }, // Resend's webhook signatures (Svix): an HMAC check over the body
    { pattern: pkg("@sendgrid/eventwebhook") }, // SendGrid's webhook signatures: an ECDSA check over the body
    { pattern: pkg("saxes") }, // WordPress exports (WXR) read as a stream of XML events
    { pattern: pkg("node-html-parser") }, // imported posts: their images, and Substack's and Medium's chrome removed
    { pattern: pkg("yauzl") }, // Substack and Medium export zips, backup archives: read from bytes
    { pattern: pkg("yazl") }, // backup archives written as a stream
    { pattern: pkg("isbot") }, // stats: a user agent matched against a maintained list of crawlers
    { pattern: pkg("ua-parser-js") }, // stats: a user agent's device class
  ],
  files: [],
  hints: [
    {
      pattern: /^src\/config\//,
      message:
        "the domain reads no environment. Declare what the feature needs as a small type beside it; src/app reads the config and hands the values in.",
    },
    {
      pattern: /^src\/(app|adapters)\//,
      message: "src/core receives adapters and the app's parts as dependencies (src/app is the composition root); it does not import them.",
    },
    { pattern: /^(src\/api|netlify)\//, message: "the API and netlify/ call the domain, not the other way round." },
    {
      pattern: /^((pg|nodemailer|ws)(\/|$)|@neondatabase\/|@netlify\/|@electric-sql\/)/,
      message:
        "src/core talks to the database, files and mail through its seams (SqlExecutor, FileStore, a mailer); drivers and Netlify packages belong in src/adapters.",
    },
    { pattern: /^(astro($|:|\/)|@astrojs\/)/, message: "src/core is plain TypeScript: no Astro imports." },
    {
      pattern: /^node:/,
      message: "only the pure built-ins (node:crypto, node:buffer, node:util, node:net's isIP*) belong in the domain; I/O reaches it through a seam.",
    },
  ],
  refusal:
    "src/core imports only zod, pure built-ins and the pure libraries listed in .config/eslint.config.js. A library that computes without I/O may be added there, with its reason; anything that talks to the outside belongs in src/adapters.",
};

/**
 * The migrations reader loads the SQL files of netlify/database/migrations from disk. Reading files
 * is an adapter's work; until it moves, this one file may use node:fs/promises.
 */
const migrationsReaderPolicy = {
  ...corePolicy,
  packages: [...corePolicy.packages, { pattern: /^node:fs\/promises$/ }],
};

/** Islands run in the browser: browser libraries, shared schemas and texts, and `import type` from anywhere. */
const islandPolicy = {
  home: "src/islands/",
  allowTypeImports: true,
  packages: [
    { pattern: pkg("react") },
    { pattern: pkg("react-dom") },
    { pattern: pkg("@radix-ui") },
    { pattern: pkg("@tanstack/react-query") },
    { pattern: pkg("@tiptap") },
    { pattern: pkg("@simplewebauthn/browser") },
    { pattern: pkg("recharts") }, // the dashboard's Stats chart
    { pattern: /^zod$/ },
  ],
  files: [
    // One schema per idea validates the form in the browser and the request on the server.
    { pattern: /\.schema\.ts$/ },
    // The route declarations and their paths give the typed client its calls.
    { pattern: /^src\/api\/api-paths\.ts$/ },
    { pattern: /^src\/api\/routes\/[^/]+\.routes\.ts$/ },
    // Texts, limits and rules shared with the server, which hold no server code.
    { pattern: /^src\/core\/messages\.ts$/ },
    { pattern: /^src\/core\/files\/(upload-limits|image-sizes)\.ts$/ },
    { pattern: /^src\/core\/posts\/link-schemes\.ts$/ },
    { pattern: /^src\/core\/shared\/escape-html\.ts$/ },
    { pattern: /^src\/lib\/(format-date|group-downloads|post-excerpt)\.ts$/ },
  ],
  hints: [
    {
      pattern: /\.(service|handlers)\.ts$/,
      message: "islands run in the browser: services and handlers are server code. Take the shape from a *.schema.ts (or `import type`).",
    },
    { pattern: /^src\/(core\/db|adapters)\//, message: "islands never import database or file-store code." },
    { pattern: /^src\/config\//, message: "islands never read the server environment." },
    {
      pattern: /^(node:|pg$|pg\/|@neondatabase\/|@netlify\/|@electric-sql\/|@simplewebauthn\/server|sanitize-html$|file-type$|sharp$)/,
      message: "islands run in the browser: this package is server-only.",
    },
  ],
  refusal:
    "islands run in the browser and import only browser libraries, *.schema.ts files, the route declarations, and the shared texts and limits listed in .config/eslint.config.js (or anything with `import type`).",
};

const boundaries = {
  rules: {
    core: allowedImportsRule(corePolicy, projectRoot),
    "core-migrations-reader": allowedImportsRule(migrationsReaderPolicy, projectRoot),
    islands: allowedImportsRule(islandPolicy, projectRoot),
  },
};

export default tseslint.config(
  { ignores: ["dist/**", ".astro/**", ".netlify/**", "node_modules/**", "tests/.results/**", "test-results/**", "playwright-report/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: projectRoot },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
    },
  },
  { plugins: { boundaries } },
  {
    files: ["src/islands/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: { "boundaries/islands": "error" },
  },
  {
    files: ["src/core/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}", "src/core/db/migrations.ts"],
    rules: { "boundaries/core": "error" },
  },
  {
    files: ["src/core/db/migrations.ts"],
    rules: { "boundaries/core-migrations-reader": "error" },
  },
  // The floor of src/core (shared, db, mail, files) imports no feature folder: every feature stands on
  // it, so one import upwards ties features into a knot (issue 38). Packages are the core rule's business.
  {
    files: ["src/core/{shared,db,mail,files}/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: {
      "core-floor": {
        rules: {
          imports: allowedImportsRule(
            {
              // No path starts with this home: each floor folder reaches the others through the list below.
              home: "src/core/{shared,db,mail,files}/",
              allowTypeImports: false,
              packages: [{ pattern: /^/ }],
              files: [
                { pattern: /^src\/core\/(shared|db|mail|files)\// },
                { pattern: /^src\/core\/(errors|messages)\.ts$/ },
                // The sender's identity (site name, postal address, reply-to) is a site setting every email shows.
                { pattern: /^src\/core\/settings\/settings\.(schema|service)\.ts$/ },
              ],
              hints: [],
              refusal:
                "src/core/{shared,db,mail,files} are the floor every feature stands on and import no feature folder (a feature importing them and them importing it is a knot). Move what both need down to the floor, or have src/app hand it in as a hook (the mail room's renderer table, src/app/mail-kinds.ts).",
            },
            projectRoot,
          ),
        },
      },
    },
    rules: { "core-floor/imports": "error" },
  },
  ...astro.configs.recommended,
  {
    files: ["**/*.astro"],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    ...tseslint.configs.disableTypeChecked,
  },
);
