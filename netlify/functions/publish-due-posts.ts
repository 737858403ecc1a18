import type { Config } from "@netlify/functions";
import { bootApp } from "../../src/app/boot-app.ts";
import { publishDuePosts } from "../../src/core/posts/posts.service.ts";
import { retryUnbuiltChanges } from "../../src/core/publishing/build-status.ts";

/**
 * Scheduled publishing, every minute: publishes each scheduled post whose time has come and calls
 * the build hook, so the post is on the site a minute or two after its time (a build included);
 * and calls the hook again for changes whose build failed, with backoff, until it answers 2xx.
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
    // A change whose build-hook call failed (or was lost) is built again once its backoff has passed.
    else if (await retryUnbuiltChanges(app.deps, { waitUntil: (call) => calls.push(call) }))
      console.log("[publish] the site is behind its content: build hook called again");
    await Promise.all(calls);
  } finally {
    await app.close();
  }
};

export const config: Config = {
  schedule: "* * * * *",
};
