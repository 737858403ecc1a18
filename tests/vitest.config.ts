import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const include = ["src/**/*.test.ts", "netlify/**/*.test.ts", "tests/unit/**/*.test.ts", "tests/security/**/*.test.ts"];
const exclude = ["node_modules", "dist", ".netlify"];

/**
 * Test files that run in a fresh process of their own; every other file shares its worker's loaded
 * modules with the files before it.
 * - local-date-time: sets the process's time zone.
 * - threaded-database, restore: start `npm start`'s database (PostgreSQL compiled to WebAssembly) in a
 *   worker thread and stop it. In a worker that had run PGlite on its main thread for earlier files,
 *   the thread's teardown once crashed the whole process in V8 (2026-11-28, "Check failed:
 *   jit_page_->allocations_.erase(addr) == 1" in UnregisterWasmAllocation, SIGILL), most likely on
 *   freeing WebAssembly code the main thread had compiled too. `npm start` stops its thread only as it exits.
 * - local-database-fixes: counts objects on the heap (`queryObjects`), a walk of the whole heap, four
 *   times. In a worker holding the earlier files' modules its two tests took 11.3 and 10.5 s; in a
 *   process of its own 2.5 and 2.3 s (2026-11-29).
 */
const isolated = [
  "src/islands/admin/posts/local-date-time.test.ts",
  "netlify/local/threaded-database.test.ts",
  "netlify/database/restore.test.ts",
  "netlify/local/local-database-fixes.test.ts",
];

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    // PGlite boots in ~1 s; a real server adds a database per file.
    testTimeout: 30_000,
    // One file per core, and never fewer than two: vitest's default (one worker fewer than the
    // cores) ran one file at a time on the 2-core CI machine; two took the suite from 650 s to
    // 473 s there (decision 0047, addendum of stop 53).
    maxWorkers: Math.max(2, availableParallelism()),
    hookTimeout: 60_000,
    reporters: ["default", ["json", { outputFile: "tests/.results/vitest.json" }]],
    setupFiles: ["tests/support/fail-on-console-error.ts"],
    // Files share a worker's modules (isolate: false): importing the app again for each of 180 files
    // was 14 % of the suite's time, and a subset ran in 49.6 CPU seconds against 86.4 isolated
    // (decision 0090's addendum). Each file still opens its own databases, servers and clock.
    projects: [
      { extends: true, test: { name: "shared", isolate: false, include, exclude: [...exclude, ...isolated] } },
      { extends: true, test: { name: "isolated", include: isolated } },
    ],
  },
});
