/**
 * Lighthouse scores (mobile, simulated throttling: Lighthouse's defaults) of pages of a running
 * site, in one headless Chromium:
 *   node tests/bench/lighthouse.ts [siteUrl]
 * measures `/`, `/blog`, a post with a cover at its own address and `/downloads`.
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
  /**
   * What each performance metric cost, in points of the 100 (its weight × what its score fell short
   * of 1), largest first: which metric moved when the page is below 100.
   */
  metricCosts: MetricCost[];
  /** The performance score of every run; the row is the run with the median score. */
  performanceRuns: number[];
}

export interface MetricCost {
  /** Lighthouse's audit id, e.g. `cumulative-layout-shift`. */
  metric: string;
  /** Its value: ms, CLS unitless. */
  value: number;
  /** Points of the performance score it cost. */
  points: number;
}

/**
 * A published post with a featured image, at its own address (`/blog/{slug}`, not the `/blog/{id}`
 * that redirects to it): a post's largest paint is its cover, which the other pages don't show
 * first (docs/decisions/0048-post-cover-holds-its-place.md).
 */
export async function postWithCover(siteUrl: string): Promise<string> {
  const answer = await fetch(new URL("/api/blog-posts?published=true", siteUrl));
  if (!answer.ok) throw new Error(`GET /api/blog-posts answered ${String(answer.status)}`);
  const posts = (await answer.json()) as { url: string; featuredImage: string | null }[];
  const post = posts.find((candidate) => candidate.featuredImage);
  if (!post) throw new Error("No published post has a featured image: the bench measures a post with a cover");
  return post.url;
}

/** The metrics that cost a page points, `lost` and more, largest first, as "CLS 0.167 −7.2". */
export function describeCosts(costs: MetricCost[], lost = 0.1): string[] {
  const names: Record<string, string> = {
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
  };
  return costs
    .filter((cost) => cost.points >= lost)
    .map((cost) => {
      const name = names[cost.metric] ?? cost.metric;
      const value =
        cost.metric === "cumulative-layout-shift"
          ? cost.value.toFixed(3)
          : cost.metric === "total-blocking-time"
            ? `${cost.value.toFixed(0)} ms`
            : `${(cost.value / 1000).toFixed(2)} s`;
      return `${name} ${value} −${cost.points.toFixed(1)}`;
    });
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
  // The performance score is the weighted mean of its metrics' scores: a metric's shortfall from 1,
  // times its share of the weights, is the points it cost.
  const performanceRefs = scores.performance?.auditRefs.filter((ref) => ref.weight > 0) ?? [];
  const performanceMetrics = new Set(performanceRefs.map((ref) => ref.id));
  // Only audits with a weight in some category move a score; insights and diagnostics do not. The
  // performance metrics are told apart with their points (metricCosts).
  const weighted = new Set(Object.values(scores).flatMap((category) => category.auditRefs.filter((ref) => ref.weight > 0).map((ref) => ref.id)));
  const failing = Object.values(audits)
    .filter((audit) => weighted.has(audit.id) && !performanceMetrics.has(audit.id) && audit.score !== null && audit.score < 0.9)
    .map((audit) => audit.id);
  const totalWeight = performanceRefs.reduce((sum, ref) => sum + ref.weight, 0);
  const metricCosts = performanceRefs
    .map((ref) => ({
      metric: ref.id,
      value: audits[ref.id]?.numericValue ?? Number.NaN,
      points: (100 * ref.weight * (1 - (audits[ref.id]?.score ?? 0))) / totalWeight,
    }))
    .toSorted((a, b) => b.points - a.points);
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
    metricCosts,
  };
}

if (import.meta.main) {
  const siteUrl = process.argv[2] ?? "http://localhost:8888";
  for (const row of await measureLighthouse(siteUrl, ["/", "/blog", await postWithCover(siteUrl), "/downloads"], chromiumPath())) {
    console.log(row.path, row.performanceRuns, describeCosts(row.metricCosts).join(", ") || "nothing cost a point", row);
  }
}
