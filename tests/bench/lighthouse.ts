/**
 * Lighthouse scores (mobile, simulated throttling: Lighthouse's defaults) of pages of a running
 * site, in one headless Chromium:
 *   node tests/bench/lighthouse.ts [siteUrl]
 * The Chromium is the browser tests' (tests/support/chromium-path.ts).
 */
import { launch } from "chrome-launcher";
import lighthouse from "lighthouse";
import { chromiumPath } from "../support/chromium-path.ts";

export interface LighthouseRow {
  path: string;
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  /** The metrics behind the performance score, in ms (CLS unitless). */
  metrics: Record<string, number>;
  /** Bytes of images the page loaded (transfer size), as Lighthouse's phone fetched them. */
  imageBytes: number;
  /** Weighted audits that cost points, for the explanation when a score is below 100. */
  failing: string[];
  /** The performance score of every run; the row is the run with the median score. */
  performanceRuns: number[];
}

/**
 * Runs per page. Lighthouse's own guidance on variability is to take the median of several runs:
 * a single run varies with nothing changed (docs/decisions/0004-performance-targets-and-benchmark.md).
 */
const runsPerPage = 3;

const categories = ["performance", "accessibility", "best-practices", "seo"];

export async function measureLighthouse(siteUrl: string, paths: string[], chromePath: string): Promise<LighthouseRow[]> {
  const chrome = await launch({
    chromePath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  try {
    const rows: LighthouseRow[] = [];
    for (const path of paths) {
      const runs: Omit<LighthouseRow, "performanceRuns">[] = [];
      for (let run = 0; run < runsPerPage; run++) runs.push(await audit(new URL(path, siteUrl).href, path, chrome.port));
      const sorted = runs.toSorted((a, b) => a.performance - b.performance);
      const median = sorted[Math.floor(sorted.length / 2)] ?? sorted[0];
      if (!median) throw new Error(`Lighthouse gave no result for ${path}`);
      rows.push({ ...median, performanceRuns: runs.map((run) => run.performance) });
    }
    return rows;
  } finally {
    chrome.kill();
  }
}

async function audit(url: string, path: string, port: number): Promise<Omit<LighthouseRow, "performanceRuns">> {
  const result = await lighthouse(url, { port, output: "json", logLevel: "error", onlyCategories: categories });
  if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
  const { categories: scores, audits } = result.lhr;
  const score = (id: string) => Math.round((scores[id]?.score ?? 0) * 100);
  // Only audits with a weight in some category move a score; insights and diagnostics do not.
  const weighted = new Set(Object.values(scores).flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id)));
  const failing = Object.values(audits)
    .filter((audit) => weighted.has(audit.id) && audit.score !== null && audit.score < 0.9)
    .map((audit) => audit.id);
  const metrics = Object.fromEntries(
    ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift", "speed-index"].map((id) => [
      id,
      audits[id]?.numericValue ?? Number.NaN,
    ]),
  );
  const requests = (audits["network-requests"]?.details as { items?: { resourceType?: string; transferSize?: number }[] } | undefined)?.items ?? [];
  const imageBytes = requests.filter((request) => request.resourceType === "Image").reduce((sum, request) => sum + (request.transferSize ?? 0), 0);
  return {
    path,
    imageBytes,
    performance: score("performance"),
    accessibility: score("accessibility"),
    bestPractices: score("best-practices"),
    seo: score("seo"),
    metrics,
    failing,
  };
}

if (import.meta.main) {
  for (const row of await measureLighthouse(process.argv[2] ?? "http://localhost:8888", ["/", "/blog", "/blog/1", "/downloads"], chromiumPath())) {
    console.log(row);
  }
}
