import http from "node:http";

/**
 * An open-loop load: requests leave at an even pace (`rate` a second) whatever the answers take,
 * as visitors arrive — nobody waits for someone else's answer. Each request's time is its own,
 * from the moment it was due to its answer, so a server that falls behind shows it in full.
 * (autocannon's `overallRate` sends each connection's share for the second in one burst when the
 * second starts and then corrects the latencies for coordinated omission, which measures the
 * burst, not a steady arrival.)
 */
export interface OpenLoopFigures {
  /** Requests answered (any status). */
  answered: number;
  /** Answers a second over the run. */
  answeredPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers that were not 2xx. */
  non2xx: number;
  /** Requests that failed without an answer. */
  errors: number;
}

export async function openLoopLoad(options: { seconds: number; rate: number; send: (index: number) => Promise<number> }): Promise<OpenLoopFigures> {
  const total = Math.round(options.seconds * options.rate);
  const intervalMs = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  const started = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let index = 0; index < total; index++) {
    const due = started + index * intervalMs;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      options.send(index).then(
        (status) => {
          latencies.push(performance.now() - due);
          if (status < 200 || status > 299) non2xx += 1;
        },
        () => {
          errors += 1;
        },
      ),
    );
  }
  await Promise.all(inFlight);
  const elapsedSeconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(share * latencies.length))] ?? 0);
  return { answered: latencies.length, answeredPerSecond: latencies.length / elapsedSeconds, p50Ms: at(0.5), p99Ms: at(0.99), non2xx, errors };
}

/** POSTs a JSON body through `agent` and answers the status once the whole answer has arrived. */
export function postJson(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-type": "application/json", "content-length": Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}
