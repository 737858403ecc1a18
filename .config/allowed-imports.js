// An ESLint rule built from an allow-list: a folder of the code names what it may import, and every
// other import is an error that says why. `.config/eslint.config.js` holds the lists (src/core and
// src/islands); this file only applies one. An allow-list, unlike a deny-list, also refuses the
// import nobody thought of when the list was written.
import path from "node:path";

/**
 * @typedef {object} Allowed
 * @property {RegExp} pattern matched against a package specifier, or against the project-relative
 *   path a relative import resolves to
 * @property {string[]} [names] when set, only these named imports (a namespace, default or dynamic
 *   import of the module is refused): for a built-in that is pure in part, like `node:net`'s `isIP`;
 *   `import type` of the module stays allowed (a shape, never the code)
 * @property {boolean} [typeOnly] when set, only `import type` (a shape, never the code)
 * @property {string} [says] how the map (CONTRIBUTING.md's "may import") names this entry; entries
 *   with the same words are named once
 *
 * @typedef {object} Hint a clearer reason for an import that is commonly refused
 * @property {RegExp} pattern matched like {@link Allowed.pattern}
 * @property {string} message
 *
 * @typedef {object} Policy
 * @property {string} home project-relative folder, with a trailing slash; relative imports that
 *   stay inside it are always allowed
 * @property {boolean} allowTypeImports whether `import type` (and `export type … from`,
 *   `import("…").T`) may reach anything
 * @property {Allowed[]} packages bare specifiers allowed (packages, `node:` built-ins)
 * @property {Allowed[]} files project-relative paths outside `home` allowed
 * @property {Hint[]} hints reasons for refusals, first match wins
 * @property {string} refusal the reason given when no hint matches
 */

/**
 * @param {Policy} policy
 * @param {string} projectRoot absolute path of the project, with a trailing slash
 * @returns {import("eslint").Rule.RuleModule}
 */
export function allowedImportsRule(policy, projectRoot) {
  return {
    meta: {
      type: "problem",
      docs: { description: `Imports in ${policy.home} come from its allow-list.` },
      schema: [],
      messages: { refused: "{{target}} is not on the allow-list of {{home}}: {{reason}}" },
    },
    create(context) {
      const fileDir = path.dirname(context.filename);

      /** @param {import("estree").Node} node @param {unknown} source @param {{ typeOnly: boolean, names?: string[] | null }} use */
      function check(node, source, { typeOnly, names = null }) {
        if (source?.type !== "Literal" || typeof source.value !== "string") return;
        if (typeOnly && policy.allowTypeImports) return;
        const specifier = source.value;
        const isPath = specifier.startsWith(".") || specifier.startsWith("/");
        const target = isPath ? path.relative(projectRoot, path.resolve(fileDir, specifier)).split(path.sep).join("/") : specifier;
        if (isPath && target.startsWith(policy.home)) return;
        const allowed = (isPath ? policy.files : policy.packages).find(({ pattern }) => pattern.test(target));
        const namesOk = !allowed?.names || typeOnly || (names !== null && names.every((name) => allowed.names.includes(name)));
        const kindOk = !allowed?.typeOnly || typeOnly;
        if (allowed && namesOk && kindOk) return;
        const hint = policy.hints.find(({ pattern }) => pattern.test(target));
        const reason = allowed?.names
          ? `only ${allowed.names.map((name) => `{ ${name} }`).join(", ")} may be imported from it.`
          : allowed?.typeOnly
            ? `only its types may be imported (\`import type\`)${hint ? `: ${hint.message}` : "."}`
            : (hint?.message ?? policy.refusal);
        context.report({ node, messageId: "refused", data: { target: `"${target}"`, home: policy.home.replace(/\/$/, ""), reason } });
      }

      /** The imported names of a declaration, or null when it takes a namespace or a default. */
      function importedNames(specifiers) {
        if (specifiers.length === 0) return null;
        const names = specifiers.map((specifier) =>
          specifier.type === "ImportSpecifier" ? (specifier.imported.name ?? specifier.imported.value) : null,
        );
        return names.includes(null) ? null : names;
      }

      return {
        ImportDeclaration(node) {
          const typeOnly =
            node.importKind === "type" || (node.specifiers.length > 0 && node.specifiers.every((specifier) => specifier.importKind === "type"));
          check(node, node.source, { typeOnly, names: importedNames(node.specifiers) });
        },
        ExportNamedDeclaration(node) {
          if (node.source) check(node, node.source, { typeOnly: node.exportKind === "type" });
        },
        ExportAllDeclaration(node) {
          check(node, node.source, { typeOnly: node.exportKind === "type" });
        },
        ImportExpression(node) {
          check(node, node.source, { typeOnly: false });
        },
        TSImportType(node) {
          check(node, node.argument?.literal ?? node.argument, { typeOnly: true });
        },
      };
    },
  };
}

/**
 * What a policy allows, as the map says it: each entry's `says`, once, in order — packages and files
 * alike. CONTRIBUTING.md's "may import" column is checked against it (tests/unit/import-boundaries.test.ts).
 * @param {Policy} policy
 * @returns {string}
 */
export function mayImport(policy) {
  const said = [...policy.files, ...policy.packages].map((allowed) => allowed.says).filter(Boolean);
  return [...new Set(said)].join(", ");
}
