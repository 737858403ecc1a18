import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["src/**/*.test.ts", "netlify/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/security/**/*.test.ts"],
    exclude: ["node_modules", "dist", ".netlify"],
    // PGlite boots in ~1 s; a real server adds a database per file.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "tests/.results/vitest.json" }]],
    setupFiles: ["tests/support/fail-on-console-error.ts"],
  },
});
