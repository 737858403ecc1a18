import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { publishDuePosts } from "../../src/core/posts/posts.service.ts";

/**
 * Scheduled publishing, every minute: publishes each scheduled post whose time has come and calls
 * the build hook, so the post is on the site a minute or two after its time (a build included).
 * Overlapping or replayed runs are safe: a post goes live once.
 */
export default async (): Promise<void> => {
  const app = await bootApp();
  try {
    // The hook call outlives nothing here: wait for it before the function ends.
    const calls: Promise<unknown>[] = [];
    const published = await publishDuePosts(app.deps, { waitUntil: (call) => calls.push(call) });
    await Promise.all(calls);
    if (published.length > 0) console.log(`[publish] scheduled posts went live: ${published.join(", ")}; build hook called`);
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "* * * * *",
};
