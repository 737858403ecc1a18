/**
 * Publish → live under a running `npm start`: a draft post is published through the API (as the
 * dashboard does) and timed until its page is served. Each run is a full site rebuild.
 *   node tests/bench/publish-live.ts <siteUrl> <adminPassword> [runs]
 */
import { formData } from "../support/multipart.ts";
import { adminCookie } from "./admin-session.ts";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `path` is served with `text` in it; resolves with the seconds waited. */
export async function waitForPage(siteUrl: string, path: string, text: string, timeoutMs = 120_000): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < timeoutMs) {
    const response = await fetch(new URL(path, siteUrl)).catch(() => undefined);
    if (response?.ok && (await response.text()).includes(text)) return (performance.now() - started) / 1000;
    await sleep(50);
  }
  throw new Error(`${path} did not show "${text}" within ${String(timeoutMs / 1000)} s`);
}

const postForm = (title: string, published: boolean): FormData =>
  formData({ title, content: `<p>${title}: a post published by the benchmark.</p>`, published: String(published) });

/**
 * Seconds from the call that publishes each draft to its page being served, sorted. The drafts
 * must exist already with no rebuild pending, or the wait for that rebuild would count too.
 */
export async function measurePublishLive(siteUrl: string, password: string, draftIds: number[]): Promise<number[]> {
  const headers = { origin: new URL(siteUrl).origin, cookie: await adminCookie(siteUrl, password) };
  const seconds: number[] = [];
  for (const id of draftIds) {
    const title = `Live at ${String(Date.now())}`;
    const started = performance.now();
    const publish = await fetch(new URL(`/api/blog-posts/${String(id)}`, siteUrl), { method: "PUT", headers, body: postForm(title, true) });
    if (!publish.ok) throw new Error(`publishing failed: ${String(publish.status)}`);
    await waitForPage(siteUrl, `/blog/${String(id)}`, title);
    seconds.push((performance.now() - started) / 1000);
  }
  return seconds.sort((a, b) => a - b);
}

if (import.meta.main) {
  const [siteUrl = "http://localhost:8888", password = "", runs = "3"] = process.argv.slice(2);
  const headers = { origin: new URL(siteUrl).origin, cookie: await adminCookie(siteUrl, password) };
  const drafts: number[] = [];
  for (let i = 0; i < Number(runs); i++) {
    const draft = await fetch(new URL("/api/blog-posts", siteUrl), { method: "POST", headers, body: postForm(`Draft ${String(i)}`, false) });
    drafts.push(((await draft.json()) as { id: number }).id);
  }
  // Let the rebuilds the drafts asked for finish first.
  await sleep(20_000);
  const times = await measurePublishLive(siteUrl, password, drafts);
  console.log(`publish → live: ${times.map((t) => t.toFixed(2)).join(" s, ")} s`);
}
