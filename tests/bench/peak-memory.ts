/**
 * Peak resident memory of a process and its children, sampled from /proc (Linux). Child process
 * figures from the outside: `process.resourceUsage()` covers only the calling process.
 */
import { readFile } from "node:fs/promises";

async function statusField(pid: number, field: "VmRSS" | "VmHWM"): Promise<number> {
  const status = await readFile(`/proc/${String(pid)}/status`, "utf8").catch(() => "");
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  return kb ? Number(kb) * 1024 : 0;
}

async function descendants(pid: number): Promise<number[]> {
  const children = await readFile(`/proc/${String(pid)}/task/${String(pid)}/children`, "utf8").catch(() => "");
  const direct = children.split(" ").filter(Boolean).map(Number);
  const nested = await Promise.all(direct.map(descendants));
  return [...direct, ...nested.flat()];
}

/** Resident bytes of `pid` and all its descendants right now. */
export async function treeRss(pid: number): Promise<number> {
  const pids = [pid, ...(await descendants(pid))];
  const sizes = await Promise.all(pids.map((each) => statusField(each, "VmRSS")));
  return sizes.reduce((total, size) => total + size, 0);
}

/**
 * Samples the resident memory of `pid`'s process tree every `intervalMs` until `stop()`, which
 * resolves with the highest total seen. For a process started just now, `lifetimePeak` also
 * counts the kernel's high-water mark of the root process, which catches peaks between samples.
 */
export function trackPeakMemory(pid: number, intervalMs = 100, lifetimePeak = false): { stop: () => Promise<number> } {
  let peak = 0;
  let sampling = Promise.resolve();
  const sample = () => {
    sampling = Promise.all([treeRss(pid), lifetimePeak ? statusField(pid, "VmHWM") : 0]).then(([rss, hwm]) => {
      peak = Math.max(peak, rss, hwm);
    });
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await sampling;
      return peak;
    },
  };
}
