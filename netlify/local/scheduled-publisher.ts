import type { AppDeps } from "../../src/app/app-deps.ts";
import { publishDuePosts } from "../../src/core/posts/posts.service.ts";
import { retryUnbuiltChanges } from "../../src/core/publishing/build-status.ts";
import { startTicker } from "./ticker.ts";

/** How often `npm start` looks for scheduled posts whose time has come. */
export const scheduledPublishTickMs = 30_000;

/**
 * `npm start`'s stand-in for the publish-due-posts Scheduled Function: the same check on a timer,
 * and a rebuild (the local build hook) when a post went live, or again when a build failed.
 */
export function startScheduledPublisher(deps: Pick<AppDeps, "db" | "now" | "rebuild">, options: { log: (line: string) => void }): { stop(): void } {
  return startTicker(
    scheduledPublishTickMs,
    async () => {
      const published = await publishDuePosts(deps);
      if (published.length > 0) options.log(`Scheduled posts went live: ${published.join(", ")}; rebuilding the site.`);
      else if (await retryUnbuiltChanges(deps)) options.log("The site is behind its content after a failed build: rebuilding it again.");
    },
    {
      runAtStart: true,
      // The next tick tries again; a post goes live once whichever tick gets it.
      onError: (error) => console.error("[publish] The scheduled-posts check failed; retrying on the next tick:", error),
    },
  );
}
