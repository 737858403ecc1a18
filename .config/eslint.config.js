// Lint config (kept out of the top level; `npm run lint` passes it with --config).
import astro from "eslint-plugin-astro";
import globals from "globals";
import tseslint from "typescript-eslint";

/**
 * Import boundaries: each rule is a regular expression over the import specifier and the reason,
 * checked for static imports and re-exports (no-restricted-imports) and for `import("…")`
 * (no-restricted-syntax), so a lazily loaded driver is caught too. Test files are exempt: they
 * wire real adapters and compare browser and server behaviour. `tests/unit/import-boundaries.test.ts`
 * checks that these rules fire.
 */
/** Islands run in the browser: no server values. `import type` is fine; schemas and route declarations are shared. */
const islandBoundaries = [
  {
    regex: String.raw`\.(service|handlers)(\.ts)?$`,
    message: "Islands run in the browser: services and handlers are server code. Take the shape from a *.schema.ts (or `import type`).",
  },
  { regex: String.raw`(^|/)core/db/`, message: "Islands never import database code." },
  { regex: String.raw`(^|/)adapters/`, message: "Islands never import database or file-store adapters." },
  { regex: String.raw`(^|/)core/auth/(?!.*\.schema\.ts$)`, message: "Islands may import only auth schemas (core/auth/*.schema.ts), not auth code." },
  { regex: String.raw`(^|/)config/server-env(\.ts)?$`, message: "Islands never read the server environment." },
  {
    regex: String.raw`^(node:|pg$|pg/|@neondatabase/|@netlify/|@electric-sql/|@simplewebauthn/server|sanitize-html$|file-type$)`,
    message: "Islands run in the browser: this package is server-only.",
  },
];

/** The domain knows nothing of HTTP, Netlify, drivers or Astro: those reach it as dependencies. */
const coreBoundaries = [
  {
    regex: String.raw`(^|/)(api|netlify)/`,
    message: "src/core imports nothing from the API or netlify/: they call the domain, not the other way round.",
  },
  { regex: String.raw`(^|/)adapters/`, message: "src/core receives adapters as dependencies (composition root); it does not import them." },
  {
    regex: String.raw`^(pg$|pg/|@neondatabase/|@netlify/|@electric-sql/)`,
    message:
      "src/core talks to the database and files through its seams (SqlExecutor, FileStore); drivers and Netlify packages belong in src/adapters.",
  },
  { regex: String.raw`^(astro($|:|/)|@astrojs/)`, message: "src/core is plain TypeScript: no Astro imports." },
];

/** The same boundaries as rules for static and dynamic imports. */
function importBoundaryRules(boundaries, { allowTypeImports }) {
  return {
    "@typescript-eslint/no-restricted-imports": [
      "error",
      { patterns: boundaries.map(({ regex, message }) => ({ regex, message, allowTypeImports })) },
    ],
    "no-restricted-syntax": [
      "error",
      ...boundaries.map(({ regex, message }) => ({
        // esquery reads the pattern between slashes, so a slash inside it is written \u002F.
        selector: `ImportExpression[source.value=/${regex.replaceAll("/", String.raw`\u002F`)}/]`,
        message,
      })),
    ],
  };
}

export default tseslint.config(
  { ignores: ["dist/**", ".astro/**", ".netlify/**", "node_modules/**", "tests/.results/**", "test-results/**", "playwright-report/**"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: { projectService: true, tsconfigRootDir: new URL("..", import.meta.url).pathname },
    },
    rules: {
      "@typescript-eslint/restrict-template-expressions": ["error", { allowNumber: true }],
    },
  },
  {
    files: ["src/islands/**/*.{ts,tsx}"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: importBoundaryRules(islandBoundaries, { allowTypeImports: true }),
  },
  {
    files: ["src/core/**/*.ts"],
    ignores: ["**/*.test.ts"],
    rules: importBoundaryRules(coreBoundaries, { allowTypeImports: false }),
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
