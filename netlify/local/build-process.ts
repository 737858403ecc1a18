import { fork, type ChildProcess } from "node:child_process";
import { mkdir, rm } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { BuildJob, BuildJobResult } from "./kept-renderer.ts";

export interface BuildOutcome {
  ok: boolean;
  tail: string;
  /** The process could not serve this job (no kept renderer, or it has exited): build another way. */
  unavailable?: boolean;
}

const workerFile = fileURLToPath(new URL("./build-worker.ts", import.meta.url));

/**
 * The site builder's side of one long-lived build process (netlify/local/build-worker.ts): its full
 * build, then the incremental passes on that build, one at a time, until `stop`.
 */
export class BuildProcess {
  readonly #child: ChildProcess;
  readonly #dir: string;
  readonly #pending = new Map<number, (result: BuildJobResult) => void>();
  #next = 0;
  #tail = "";
  #exited = false;

  private constructor(child: ChildProcess, dir: string) {
    this.#child = child;
    this.#dir = dir;
    const keep = (chunk: Buffer) => {
      this.#tail = (this.#tail + chunk.toString()).slice(-4000);
    };
    child.stdout?.on("data", keep);
    child.stderr?.on("data", keep);
    child.on("message", (result: BuildJobResult) => {
      this.#pending.get(result.id)?.(result);
    });
    child.on("exit", (code, signal) => {
      this.#exited = true;
      for (const [id, settle] of this.#pending)
        settle({ id, ok: false, unavailable: true, tail: `build process exited (${String(signal ?? code)})\n${this.#tail}` });
    });
    this.#idle();
  }

  /** Starts a build process working in `dir` (its own: Astro puts the build's server half there). */
  static async start(dir: string, env: NodeJS.ProcessEnv): Promise<BuildProcess> {
    await mkdir(dir, { recursive: true });
    return new BuildProcess(fork(workerFile, [], { cwd: dir, env, stdio: ["ignore", "pipe", "pipe", "ipc"] }), dir);
  }

  /** Runs one job; resolves with its outcome (never rejects). */
  run(kind: BuildJob["kind"], projectRoot: string, env: Record<string, string>): Promise<BuildOutcome> {
    if (this.#exited) return Promise.resolve({ ok: false, unavailable: true, tail: "build process has exited" });
    const id = ++this.#next;
    // A job waiting on the process keeps the server's event loop alive; an idle process does not.
    this.#child.ref();
    this.#child.channel?.ref();
    return new Promise((resolve) => {
      this.#pending.set(id, (result) => {
        this.#pending.delete(id);
        if (this.#pending.size === 0) this.#idle();
        resolve({ ok: result.ok, tail: result.ok ? "" : result.tail, ...(result.unavailable && { unavailable: true }) });
      });
      this.#child.send({ id, kind, projectRoot, env } satisfies BuildJob);
    });
  }

  #idle(): void {
    this.#child.unref();
    this.#child.channel?.unref();
  }

  /** Ends the process and removes its folder. */
  async stop(): Promise<void> {
    if (!this.#exited) {
      const exited = new Promise((resolve) => this.#child.once("exit", resolve));
      this.#child.kill();
      await exited;
    }
    await rm(this.#dir, { recursive: true, force: true });
  }
}
