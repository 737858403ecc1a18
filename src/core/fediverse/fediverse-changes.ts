import type { SqlExecutor } from "../db/sql-executor.ts";
import { changeIsLive, websubWaitForMs, type HubPageCheck } from "../publishing/websub.ts";
import type { Clock } from "../shared/clock.ts";
import type { Site } from "../shared/site.ts";

/**
 * A post's change reaches the followers only once its page shows it (issue 45 point 3), as WebSub
 * pings wait (src/core/publishing/websub.ts): each waiting `fediverse_changes` row (written in the
 * post's transaction by src/core/posts/post-hub-ping.ts) becomes, once live, one delivery per
 * follower inbox (a server's shared inbox once): `Create` the first time, `Update` after an edit,
 * `Delete` once unpublished or deleted. Blocked servers get nothing.
 */

export interface FediverseChangesDeps {
  db: SqlExecutor;
  now: Clock["now"];
  site: Site;
  checkPage: (url: string) => Promise<HubPageCheck>;
}

const checksPerRun = 20;

export async function promoteFediverseChanges(deps: FediverseChangesDeps): Promise<number> {
  const { rows } = await deps.db.query<{
    id: number | string;
    post_id: number;
    page_path: string;
    expect: "live" | "gone";
    modified_at: Date | null;
    created_at: Date;
  }>("SELECT id, post_id, page_path, expect, modified_at, created_at FROM fediverse_changes WHERE status = 'waiting' ORDER BY id LIMIT $1", [
    checksPerRun,
  ]);
  let queued = 0;
  for (const row of rows) {
    const check = await deps.checkPage(deps.site.absolute(row.page_path));
    const now = deps.now();
    if (!changeIsLive(check, row.expect, row.modified_at === null ? null : new Date(row.modified_at))) {
      if (now.getTime() - new Date(row.created_at).getTime() >= websubWaitForMs)
        await deps.db.query("UPDATE fediverse_changes SET status = 'failed', last_error = $2 WHERE id = $1 AND status = 'waiting'", [
          row.id,
          `the change never showed on ${row.page_path} (last answer: ${check.answer})`.slice(0, 500),
        ]);
      continue;
    }
    queued += await deps.db.transaction(async (tx) => {
      const { rows: taken } = await tx.query("UPDATE fediverse_changes SET status = 'done' WHERE id = $1 AND status = 'waiting' RETURNING id", [
        row.id,
      ]);
      if (taken.length === 0) return 0;
      const { rows: states } = await tx.query<{ created_sent: boolean }>(
        "INSERT INTO fediverse_post_states (post_id) VALUES ($1) ON CONFLICT (post_id) DO UPDATE SET post_id = excluded.post_id RETURNING created_sent",
        [row.post_id],
      );
      const sent = states[0]?.created_sent ?? false;
      // Nothing to take back from followers who never got it.
      if (row.expect === "gone" && !sent) return 0;
      const activity = row.expect === "gone" ? "Delete" : sent ? "Update" : "Create";
      await tx.query("UPDATE fediverse_post_states SET created_sent = $2 WHERE post_id = $1", [row.post_id, row.expect === "live"]);
      const { rows: queuedRows } = await tx.query(
        `INSERT INTO fediverse_deliveries (activity, post_id, payload, recipient_id, inbox, server, created_at, updated_at)
         SELECT $1, $2, jsonb_build_object('changeId', $3::bigint), min(f.actor_id), coalesce(f.shared_inbox, f.inbox), min(f.server), $4, $4
           FROM fediverse_followers f
          WHERE NOT EXISTS (SELECT 1 FROM fediverse_blocks b WHERE b.domain = f.server)
          GROUP BY coalesce(f.shared_inbox, f.inbox)
         RETURNING id`,
        [activity, row.post_id, row.id, now],
      );
      return queuedRows.length;
    });
  }
  return queued;
}
