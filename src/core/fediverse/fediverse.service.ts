import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { NotFoundError } from "../errors.ts";
import type { Clock } from "../shared/clock.ts";
import { followersPageSize, type Block, type Deliveries, type DeliveryStatus, type FediverseStats, type FollowersPage } from "./fediverse.schema.ts";

/**
 * The owner's side of the fediverse (issue 45 point 2; docs/fediverse.md): followers, blocked
 * servers, the delivery log and the figures for Stats.
 */

export interface FediverseServiceDeps {
  db: SqlExecutor;
  now: Clock["now"];
}

const iso = (value: Date | string) => new Date(value).toISOString();

export async function listFollowers(deps: Pick<FediverseServiceDeps, "db">, page = 1): Promise<FollowersPage> {
  const { rows } = await deps.db.query<{
    id: number;
    handle: string;
    server: string;
    name: string | null;
    actor_url: string | null;
    actor_id: string;
    avatar: string | null;
    created_at: Date;
    total: number;
  }>(
    `SELECT id, handle, server, name, actor_url, actor_id, avatar, created_at, count(*) OVER ()::int AS total
       FROM fediverse_followers ORDER BY created_at DESC, id DESC LIMIT $1 OFFSET $2`,
    [followersPageSize, (page - 1) * followersPageSize],
  );
  let total = rows[0]?.total;
  if (total === undefined) total = (await deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fediverse_followers")).rows[0]?.n ?? 0;
  return {
    followers: rows.map((row) => ({
      id: row.id,
      handle: row.handle,
      server: row.server,
      name: row.name ?? row.handle.split("@")[0] ?? row.handle,
      url: row.actor_url ?? row.actor_id,
      avatar: row.avatar,
      since: iso(row.created_at),
    })),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / followersPageSize)),
  };
}

/** Removes followers (one, or a server's) and records the drop for Stats. */
async function dropFollowers(tx: SqlQueryable, now: Date, where: string, value: string | number): Promise<number> {
  const { rows } = await tx.query<{ actor_id: string }>(`DELETE FROM fediverse_followers WHERE ${where} = $1 RETURNING actor_id`, [value]);
  for (const row of rows) await tx.query("INSERT INTO fediverse_follower_events (actor_id, change, at) VALUES ($1, -1, $2)", [row.actor_id, now]);
  return rows.length;
}

export async function removeFollower(deps: FediverseServiceDeps, id: number): Promise<void> {
  const removed = await deps.db.transaction((tx) => dropFollowers(tx, deps.now(), "id", id));
  if (removed === 0) throw new NotFoundError("Follower not found");
}

/** Blocks a server: its followers go, its pending deliveries are skipped. Blocking it again keeps the first time. */
export async function blockServer(deps: FediverseServiceDeps, domain: string): Promise<Block> {
  return deps.db.transaction(async (tx) => {
    const now = deps.now();
    await tx.query("INSERT INTO fediverse_blocks (domain, created_at) VALUES ($1, $2) ON CONFLICT (domain) DO NOTHING", [domain, now]);
    await dropFollowers(tx, now, "server", domain);
    await tx.query(
      "UPDATE fediverse_deliveries SET status = 'skipped', lease_until = NULL, updated_at = $2 WHERE server = $1 AND status = 'pending'",
      [domain, now],
    );
    const { rows } = await tx.query<{ domain: string; created_at: Date }>("SELECT domain, created_at FROM fediverse_blocks WHERE domain = $1", [
      domain,
    ]);
    const row = rows[0] as { domain: string; created_at: Date };
    return { domain: row.domain, createdAt: iso(row.created_at) };
  });
}

export async function listBlocks(deps: Pick<FediverseServiceDeps, "db">): Promise<{ blocks: Block[] }> {
  const { rows } = await deps.db.query<{ domain: string; created_at: Date }>(
    "SELECT domain, created_at FROM fediverse_blocks ORDER BY created_at DESC, domain",
  );
  return { blocks: rows.map((row) => ({ domain: row.domain, createdAt: iso(row.created_at) })) };
}

export async function unblockServer(deps: Pick<FediverseServiceDeps, "db">, domain: string): Promise<void> {
  const { rows } = await deps.db.query("DELETE FROM fediverse_blocks WHERE domain = $1 RETURNING domain", [domain]);
  if (rows.length === 0) throw new NotFoundError("Block not found");
}

/** A row's state for the owner: waiting (never tried), failed (tried, tried again later), delivered, given-up (final refusal or its server given up on). */
const statusSql = `CASE WHEN d.status = 'sent' THEN 'delivered'
                        WHEN d.status = 'pending' AND d.attempts = 0 THEN 'waiting'
                        WHEN d.status = 'pending' THEN 'failed'
                        ELSE 'given-up' END`;

export async function listDeliveries(deps: Pick<FediverseServiceDeps, "db">, status?: DeliveryStatus): Promise<Deliveries> {
  const { rows } = await deps.db.query<{
    id: number | string;
    activity: "Create" | "Update" | "Delete" | "Accept";
    post_id: number | null;
    title: string | null;
    inbox: string;
    server: string;
    state: DeliveryStatus;
    attempts: number;
    last_error: string | null;
    lease_until: Date | null;
    updated_at: Date;
  }>(
    `SELECT d.id, d.activity, d.post_id, p.title, d.inbox, d.server, ${statusSql} AS state, d.attempts, d.last_error,
            CASE WHEN d.status = 'pending' THEN d.lease_until END AS lease_until,
            greatest(d.updated_at, coalesce(d.sent_at, d.updated_at)) AS updated_at
       FROM fediverse_deliveries d LEFT JOIN posts p ON p.id = d.post_id
      WHERE $1::text IS NULL OR ${statusSql} = $1
      ORDER BY d.id DESC LIMIT 200`,
    [status ?? null],
  );
  const dead = await deps.db.query<{ server: string; since: Date }>(
    "SELECT server, coalesce(failing_since, given_up_at) AS since FROM fediverse_servers WHERE given_up_at IS NOT NULL ORDER BY server",
  );
  return {
    deliveries: rows.map((row) => ({
      id: Number(row.id),
      activity: row.activity,
      postId: row.post_id,
      postTitle: row.title,
      inbox: row.inbox,
      server: row.server,
      status: row.state,
      attempts: row.attempts,
      lastError: row.last_error,
      nextAttemptAt: row.state === "waiting" || row.state === "failed" ? (row.lease_until ? iso(row.lease_until) : null) : null,
      updatedAt: iso(row.updated_at),
    })),
    deadServers: dead.rows.map((row) => ({ server: row.server, since: iso(row.since) })),
  };
}

/** Followers at the end of each of the last 90 days (UTC), and each published post's reactions. */
export async function fediverseStats(deps: FediverseServiceDeps): Promise<FediverseStats> {
  const today = new Date(deps.now().toISOString().slice(0, 10) + "T00:00:00Z");
  const days = Array.from({ length: 90 }, (_, index) => new Date(today.getTime() - (89 - index) * 86_400_000));
  const { rows: current } = await deps.db.query<{ n: number }>("SELECT count(*)::int AS n FROM fediverse_followers");
  const { rows: changes } = await deps.db.query<{ day: string; change: number }>(
    "SELECT to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, sum(change)::int AS change FROM fediverse_follower_events WHERE at >= $1 GROUP BY 1",
    [days[1] ?? today],
  );
  const byDay = new Map(changes.map((row) => [row.day, row.change]));
  // Walked back from today's count: each day's total is the next day's minus that next day's changes.
  let total = current[0]?.n ?? 0;
  const followers: FediverseStats["followers"] = [];
  for (let index = days.length - 1; index >= 0; index--) {
    const day = (days[index] as Date).toISOString().slice(0, 10);
    followers.unshift({ day, total: Math.max(0, total) });
    total -= byDay.get(day) ?? 0;
  }
  const { rows } = await deps.db.query<{ id: number; title: string; likes: number; boosts: number; replies: number }>(
    `SELECT p.id, p.title,
            (SELECT count(*)::int FROM fediverse_reactions r WHERE r.post_id = p.id AND r.kind = 'like') AS likes,
            (SELECT count(*)::int FROM fediverse_reactions r WHERE r.post_id = p.id AND r.kind = 'boost') AS boosts,
            (SELECT count(*)::int FROM comments c WHERE c.post_id = p.id AND c.fediverse_object_id IS NOT NULL) AS replies
       FROM posts p WHERE p.published`,
  );
  const posts = rows
    .filter((row) => row.likes + row.boosts + row.replies > 0)
    .sort((a, b) => b.likes + b.boosts + b.replies - (a.likes + a.boosts + a.replies) || b.id - a.id)
    .slice(0, 100)
    .map((row) => ({ postId: row.id, title: row.title, likes: row.likes, boosts: row.boosts, replies: row.replies }));
  return { followers, posts };
}
