import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { apiPaths } from "../../src/api/api-paths.ts";

/**
 * A readable reference of the API (Scalar, from node_modules) for the one running `npm start`:
 * local only, never part of the built site. It reads the same `/api/openapi.json` production serves.
 */
export const apiReferencePath = "/.netlify/local/api-reference";
const scriptPath = `${apiReferencePath}/standalone.js`;

const page = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>No Filter API reference</title>
  </head>
  <body>
    <div id="app"></div>
    <script src="${scriptPath}"></script>
    <script>
      Scalar.createApiReference("#app", {
        url: "${apiPaths.openApi}",
        withDefaultFonts: false,
        hideClientButton: true,
        // An API key (Integrations) tries a call from the reference; the session cookie works too.
        authentication: { preferredSecurityScheme: "apiKey" },
        proxyUrl: "",
      });
    </script>
  </body>
</html>
`;

let script: Promise<Buffer> | undefined;
const readScript = () => (script ??= readFile(createRequire(import.meta.url).resolve("@scalar/api-reference/browser/standalone.js")));

/** The reference page or its script, for a path under `apiReferencePath`; undefined for any other path. */
export async function answerApiReference(pathname: string): Promise<Response | undefined> {
  if (pathname === apiReferencePath || pathname === `${apiReferencePath}/`) {
    return new Response(page, { headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-cache" } });
  }
  if (pathname === scriptPath) {
    return new Response(new Uint8Array(await readScript()), {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
    });
  }
  return undefined;
}
