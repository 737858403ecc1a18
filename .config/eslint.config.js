// Lint config (kept out of the top level; `npm run lint` passes it with --config).
import astro from "eslint-plugin-astro";
import globals from "globals";
import tseslint from "typescript-eslint";
import { fileURLToPath } from "node:url";
import { allowedImportsRule, mayImport } from "./allowed-imports.js";

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
    { pattern: pkg("feedsmith") }, // RSS, Atom and JSON Feed written from plain objects
    { pattern: pkg("@sindresorhus/slugify") }, // post slugs
    { pattern: pkg("csv-parse") }, // subscriber import
    { pattern: pkg("csv-stringify") }, // subscriber export
    { pattern: pkg("file-type") }, // upload checks on a buffer's first bytes
    { pattern: pkg("sharp") }, // image cleaning, buffer to buffer
    { pattern: pkg("satori") }, // share images: a layout of plain objects and a font's bytes to SVG
    { pattern: pkg("@simplewebauthn/server") }, // passkey ceremonies: challenge and signature checks
    { pattern: pkg("svix") }, // Resend's webhook signatures (Svix): an HMAC check over the body
    { pattern: pkg("standardwebhooks") }, // outgoing webhooks signed the Standard Webhooks way: an HMAC over id, time and body
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

// ---------------------------------------------------------------------------------------------
// The server's rooms (issue 38): src/api, src/adapters, src/lib, netlify/functions, netlify/local.
// Each `says` is how CONTRIBUTING.md's "may import" column names the entry; a test compares them.
// ---------------------------------------------------------------------------------------------

/** The API: routes and handlers over the domain; it receives every real part through `AppDeps`. */
const apiPolicy = {
  home: "src/api/",
  allowTypeImports: false,
  packages: [
    { pattern: /^zod$/, says: "zod" },
    { pattern: pkg("cookie"), says: "cookie" }, // session cookies
    { pattern: /^node:stream$/, says: "`node:stream`" }, // backup downloads streamed out
  ],
  files: [
    { pattern: /^src\/core\//, says: "`src/core/`" },
    // The pages the API answers with are the built site's templates, filled in (previews, subscription answers).
    { pattern: /^src\/lib\/(preview|message)-template\.ts$/, says: "the page templates of `src/lib/`" },
    { pattern: /^src\/app\/app-deps\.ts$/, typeOnly: true, says: "the `AppDeps` type" },
  ],
  hints: [
    {
      pattern: /^src\/adapters\//,
      message: "the API reaches the real parts through AppDeps, which src/app wires; a handler never imports an adapter.",
    },
    { pattern: /^src\/config\//, message: "the API reads no environment: the checked configuration arrives as deps.env." },
    { pattern: /^src\/app\//, message: "src/app builds the API (it is the composition root above it): take its AppDeps as a type." },
    { pattern: /^(netlify|tests)\//, message: "entry points and tests call the API, not the other way round." },
    {
      pattern: /^((pg|nodemailer|ws)(\/|$)|@neondatabase\/|@netlify\/|@electric-sql\/)/,
      message: "drivers and Netlify packages belong in src/adapters; the API sees them through AppDeps.",
    },
  ],
  refusal:
    "src/api imports src/core, zod, cookie and the few files listed in .config/eslint.config.js; a new need of a handler is a need in AppDeps, wired by src/app.",
};

/** Adapters: drivers and platform packages behind a seam or port that src/core declares. */
const adaptersPolicy = {
  home: "src/adapters/",
  allowTypeImports: false,
  packages: [
    { pattern: /^node:/, says: "`node:` built-ins" },
    { pattern: /^pg$/, says: "drivers (pg, Neon, PGlite, ws)" },
    { pattern: pkg("@neondatabase/serverless"), says: "drivers (pg, Neon, PGlite, ws)" },
    { pattern: pkg("@electric-sql/pglite"), says: "drivers (pg, Neon, PGlite, ws)" },
    { pattern: /^ws$/, says: "drivers (pg, Neon, PGlite, ws)" },
    { pattern: pkg("@netlify/blobs"), says: "`@netlify/blobs`" },
    { pattern: pkg("nodemailer"), says: "nodemailer" },
    { pattern: pkg("yauzl"), says: "yauzl, yazl (archives as streams)" },
    { pattern: pkg("yazl"), says: "yauzl, yazl (archives as streams)" },
    { pattern: pkg("stripe"), says: "stripe (payments)" },
    { pattern: pkg("@fedify/fedify"), says: "Fedify and its vocabulary (ActivityPub: signatures, WebFinger, remote fetches; decision 0087)" },
    { pattern: pkg("@fedify/vocab"), says: "Fedify and its vocabulary (ActivityPub: signatures, WebFinger, remote fetches; decision 0087)" },
    { pattern: pkg("@js-temporal/polyfill"), says: "Fedify and its vocabulary (ActivityPub: signatures, WebFinger, remote fetches; decision 0087)" },
  ],
  files: [{ pattern: /^src\/core\//, says: "`src/core/` (the seams and ports they implement)" }],
  hints: [
    {
      pattern: /^src\/(app|api|config|lib)\/|^netlify\//,
      message: "an adapter implements a seam or port of src/core and knows nothing above it: src/app chooses it and hands it its settings.",
    },
    { pattern: /^src\/(islands|pages|components|layouts)\//, message: "adapters are server code: they never import the site or the browser's code." },
  ],
  refusal:
    "src/adapters imports src/core, node: built-ins and the drivers and platform packages listed in .config/eslint.config.js; a new real part adds its package there, with its reason.",
};

/** Page helpers: data and markup for the pages, from the domain. */
const libPolicy = {
  home: "src/lib/",
  allowTypeImports: false,
  packages: [{ pattern: pkg("node-html-parser"), says: "node-html-parser" }],
  files: [
    { pattern: /^src\/core\//, says: "`src/core/`" },
    { pattern: /^src\/api\/routes\/files\.routes\.ts$/, says: "the public file URL check of `src/api/routes/files.routes.ts`" },
  ],
  hints: [
    {
      pattern: /^src\/(app|config|adapters)\//,
      message: "page helpers get their data through src/lib/build-data.ts, the site build's one composition root; only it boots the app.",
    },
    { pattern: /^src\/(islands|components|layouts|pages)\//, message: "src/lib serves the pages and components; it does not import them." },
  ],
  refusal: "src/lib imports src/core, node-html-parser and the public file URL check; data for a page goes through build-data.ts.",
};

/** The site build's composition root: the one helper that boots the app. */
const buildDataPolicy = {
  ...libPolicy,
  files: [
    ...libPolicy.files,
    { pattern: /^src\/app\/(boot-app|app-deps|site-build-deps)\.ts$/, says: "`build-data.ts` alone also `src/app/` and `src/config/`" },
    { pattern: /^src\/config\/server-env\.ts$/, says: "`build-data.ts` alone also `src/app/` and `src/config/`" },
    // The share images' cache folder and font file: the build's own files, read where the build is put together.
    {
      pattern: /^src\/adapters\/share-image-cache\.ts$/,
      says: "`build-data.ts` alone also the share images' cache (`src/adapters/share-image-cache.ts`)",
    },
    // The incremental build's page keys: files beside the build's output (docs/decisions/0089-incremental-site-build.md).
    { pattern: /^src\/adapters\/page-keys\.ts$/, says: "`build-data.ts` alone also the page keys (`src/adapters/page-keys.ts`)" },
  ],
};

/** Netlify's entry points: each hands a Request or a tick to the app and holds no work of its own. */
const functionsPolicy = {
  home: "netlify/functions/",
  allowTypeImports: false,
  packages: [{ pattern: /^@netlify\/functions$/, typeOnly: true, says: "`@netlify/functions` types" }],
  files: [
    { pattern: /^src\/app\//, says: "`src/app/`" },
    // The request entries answer through the API's own handler and its on-demand pages (preview, comments, the reader's comments).
    {
      pattern: /^src\/api\/(api-handler|preview-page|comments-page|account-comments-page)\.ts$/,
      says: "the API's handler, preview page, comments page and the reader's comments page",
    },
  ],
  hints: [
    {
      pattern: /^src\/core\//,
      message:
        "an entry holds no work: a scheduled job is a row of src/app/background-jobs.ts (the entry names it), a request goes to the app's API.",
    },
    {
      pattern: /^src\/(adapters|config)\//,
      message: "entries boot the app (src/app/boot-app.ts), which reads the configuration and chooses the adapters.",
    },
    { pattern: /^netlify\/local\//, message: "netlify/local is npm start's; a deployed function never loads it." },
  ],
  refusal: "netlify/functions imports src/app (and the API's handler); the work lives there and in src/core.",
};

/** `npm start` and `npm run dev`: the local stand-ins for Netlify, over the same app. */
const localPolicy = {
  home: "netlify/local/",
  allowTypeImports: false,
  packages: [
    { pattern: /^node:/, says: "`node:` built-ins" },
    { pattern: /^@netlify\/(dev|blobs|database-dev)(\/|$)/, says: "Netlify's local emulations" },
    { pattern: pkg("smtp-server"), says: "the mail catcher's packages (smtp-server, mailparser, sanitize-html)" },
    { pattern: pkg("mailparser"), says: "the mail catcher's packages (smtp-server, mailparser, sanitize-html)" },
    { pattern: pkg("sanitize-html"), says: "the mail catcher's packages (smtp-server, mailparser, sanitize-html)" },
    { pattern: pkg("smol-toml"), says: "smol-toml (netlify.toml's rules)" },
    { pattern: /^zod$/, says: "zod" },
    // The long-lived build process runs `astro build` itself to keep its renderer (docs/decisions/0091-kept-renderer.md).
    { pattern: /^astro$/, names: ["build"], says: "Astro's types and its `build`" },
  ],
  files: [
    { pattern: /^src\/(app|api|adapters|config|core|lib)\//, says: "anything in `src/` but the site's pages, components and islands" },
    { pattern: /^netlify\/search-index\.ts$/, says: "`netlify/search-index.ts`" },
    // The incremental build's apply, shared with Netlify's build (netlify/build.ts), which may not import netlify/local.
    { pattern: /^netlify\/incremental-build\.ts$/, says: "`netlify/incremental-build.ts`" },
  ],
  hints: [
    { pattern: /^tests\//, message: "npm start runs on every developer's machine: test helpers belong in its *.test.ts files only." },
    { pattern: /^src\/(islands|pages|components|layouts)\//, message: "the local server serves the built site; it does not import the site's code." },
    {
      pattern: /^netlify\/functions\//,
      message: "npm start runs the app itself (the background-jobs table, the API): it does not load Netlify's entries.",
    },
  ],
  refusal: "netlify/local imports src/ (but the site's code), node: built-ins and the local packages listed in .config/eslint.config.js.",
};

/** The policies of the rooms CONTRIBUTING.md maps, by room: its "may import" column is `mayImport(policy)`. */
export const roomPolicies = {
  "src/api/": apiPolicy,
  "src/adapters/": adaptersPolicy,
  "src/lib/": libPolicy,
  "netlify/functions/": functionsPolicy,
  "netlify/local/": localPolicy,
};
export { mayImport };

const roomBoundaries = {
  rules: {
    api: allowedImportsRule(apiPolicy, projectRoot),
    adapters: allowedImportsRule(adaptersPolicy, projectRoot),
    lib: allowedImportsRule(libPolicy, projectRoot),
    "lib-build-data": allowedImportsRule(buildDataPolicy, projectRoot),
    functions: allowedImportsRule(functionsPolicy, projectRoot),
    local: allowedImportsRule(localPolicy, projectRoot),
  },
};

/** Where each room's rule applies: its files, never its tests (they wire real parts). */
const roomBoundaryConfigs = [
  { plugins: { rooms: roomBoundaries } },
  { files: ["src/api/**/*.{ts,tsx}"], ignores: ["**/*.test.{ts,tsx}"], rules: { "rooms/api": "error" } },
  { files: ["src/adapters/**/*.{ts,tsx}"], ignores: ["**/*.test.{ts,tsx}"], rules: { "rooms/adapters": "error" } },
  { files: ["src/lib/**/*.{ts,tsx}"], ignores: ["**/*.test.{ts,tsx}", "src/lib/build-data.ts"], rules: { "rooms/lib": "error" } },
  { files: ["src/lib/build-data.ts"], rules: { "rooms/lib-build-data": "error" } },
  { files: ["netlify/functions/**/*.{ts,tsx}"], ignores: ["**/*.test.{ts,tsx}"], rules: { "rooms/functions": "error" } },
  { files: ["netlify/local/**/*.{ts,tsx}"], ignores: ["**/*.test.{ts,tsx}"], rules: { "rooms/local": "error" } },
];

export default tseslint.config(
  { ignores: ["dist/**", "**/.astro/**", ".netlify/**", "node_modules/**", "tests/.results/**", "test-results/**", "playwright-report/**"] },
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
  ...roomBoundaryConfigs,
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
  // Route declarations are read by the dashboard's typed client as well as the server: whatever they import ships to the
  // browser. A message taken from a service once brought the outbox, the email renderer and a user-agent parser into
  // the dashboard's code (issue 38).
  {
    files: ["src/api/routes/*.routes.ts"],
    plugins: {
      "route-declarations": {
        rules: {
          imports: allowedImportsRule(
            {
              // No path starts with this home: each allowed file is listed below.
              home: "src/api/routes/*.routes.ts/",
              allowTypeImports: true,
              packages: [{ pattern: /^zod$/ }],
              files: [
                { pattern: /\.schema\.ts$/ },
                { pattern: /^src\/api\/(api-paths|declare-route)\.ts$/ },
                { pattern: /^src\/core\/(messages|list-page)\.ts$/ },
              ],
              hints: [],
              refusal:
                "a route declaration ships to the browser with the dashboard's client: it imports zod, schemas (*.schema.ts), messages and api-paths only. Move the shape or text it needs into its feature's *.schema.ts; server code is the handler's.",
            },
            projectRoot,
          ),
        },
      },
    },
    rules: { "route-declarations/imports": "error" },
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
