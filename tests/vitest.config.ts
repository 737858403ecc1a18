import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    include: ["src/**/*.test.ts", "netlify/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/security/**/*.test.ts"],
    exclude: ["node_modules", "dist", ".netlify"],
    // PGlite boots in ~1 s; a real server adds a database per file.
    testTimeout: 30_000,
    // One file per core, and never fewer than two: vitest's default (one worker fewer than the
    // cores) ran one file at a time on the 2-core CI machine; two took the suite from 650 s to
    // 473 s there (decision 0047, addendum of stop 53).
    maxWorkers: Math.max(2, availableParallelism()),
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "tests/.results/vitest.json" }]],
    setupFiles: ["tests/support/fail-on-console-error.ts"],
  },
});
