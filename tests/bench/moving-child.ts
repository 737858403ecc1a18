import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { MovingFigures } from "./moving.ts";

/** Runs `moving.ts` in a process of its own, so its peak memory is the import's and the backup's alone. */
export async function measureMovingInChild(postgresUrl: string): Promise<MovingFigures> {
  const script = fileURLToPath(new URL("moving.ts", import.meta.url));
  const { stdout } = await promisify(execFile)(process.execPath, [script], {
    env: { ...process.env, BENCH_POSTGRES_URL: postgresUrl },
    maxBuffer: 1024 * 1024,
    timeout: 15 * 60_000,
  });
  return JSON.parse(stdout) as MovingFigures;
}
