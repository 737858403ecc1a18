import type { SqlExecutor } from "../db/sql-executor.ts";
import { isRowId } from "../db/row-id.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import type { Clock } from "../shared/clock.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { getPost, type PostsDeps } from "./posts.service.ts";
import type { Post } from "./post.schema.ts";
import type { PreviewLink, PreviewLinkRequest } from "./preview-link.schema.ts";

/**
 * What preview links need: the database, the clock, the signer (the link carries its row id and its
 * own random token, signed together with the `preview-link` key: a restore brings rows back under
 * ids an old address may name, never with that address's token), the site (links are absolute) and
 * image links for the post.
 */
export interface PreviewLinksDeps {
  db: SqlExecutor;
  now: Clock["now"];
  signer: Signer;
  site: Pick<Site, "absolute">;
  urls: PostsDeps["urls"];
}

interface PreviewLinkRow {
  id: number;
  token: string;
  post_id: number;
  expires_at: Date | string;
  views: number;
}

const hourMs = 60 * 60 * 1000;

/** What a link's signature covers: its id and its random token. */
const signedPart = (id: number | string, token: string) => `${String(id)}.${token}`;

/** The path of a preview: `/preview/{id}/{signature}`, the signature segment being `{token}.{signature of id and token}`. */
export const previewPathPrefix = "/preview/";

function toPreviewLink(deps: Pick<PreviewLinksDeps, "signer" | "site">, row: PreviewLinkRow): PreviewLink {
  return {
    id: row.id,
    url: deps.site.absolute(
      `${previewPathPrefix}${String(row.id)}/${`${row.token}.${deps.signer.sign("preview-link", signedPart(row.id, row.token))}`}`,
    ),
    expiresAt: new Date(row.expires_at).toISOString(),
    views: row.views,
  };
}

/** Makes a preview link of a draft or scheduled post; a published post is refused (409). */
export async function createPreviewLink(deps: PreviewLinksDeps, postId: number, request: PreviewLinkRequest): Promise<PreviewLink> {
  const post = await getPost(deps, postId, { includeDrafts: true });
  if (post.published) throw new ConflictError("This post is published: share its page instead of a preview");
  const now = deps.now();
  const { rows } = await deps.db.query<PreviewLinkRow>(
    `INSERT INTO preview_links (post_id, expires_at, created_at) VALUES ($1, $2, $3) RETURNING id, token, post_id, expires_at, views`,
    [post.id, new Date(now.getTime() + request.expiresInHours * hourMs), now],
  );
  const [row] = rows;
  if (!row) throw new Error("INSERT … RETURNING gave no row");
  return toPreviewLink(deps, row);
}

/** A post's preview links, newest first, expired ones included (the dashboard marks them). */
export async function listPreviewLinks(deps: PreviewLinksDeps, postId: number): Promise<PreviewLink[]> {
  const post = await getPost(deps, postId, { includeDrafts: true });
  const { rows } = await deps.db.query<PreviewLinkRow>(
    `SELECT id, token, post_id, expires_at, views FROM preview_links WHERE post_id = $1 ORDER BY id DESC`,
    [post.id],
  );
  return rows.map((row) => toPreviewLink(deps, row));
}

/** Revokes a link: its address answers 410 from now on. */
export async function deletePreviewLink(deps: Pick<PreviewLinksDeps, "db">, id: number): Promise<void> {
  const { rows } = isRowId(id) ? await deps.db.query<{ id: number }>(`DELETE FROM preview_links WHERE id = $1 RETURNING id`, [id]) : { rows: [] };
  if (rows.length === 0) throw new NotFoundError("Preview link not found");
}

/** What a preview address shows. */
export type PreviewAnswer =
  /** The draft as it is now (this view counted). */
  | { kind: "preview"; post: Post }
  /** The post went live: its page. */
  | { kind: "published"; path: string }
  /** Expired or revoked (or its post deleted). */
  | { kind: "gone" }
  /** Not a link we made. */
  | { kind: "unknown" };

/**
 * Opens `/preview/{id}/{signature}`: checks the signature, the link's life and the post's state.
 * `countView: false` (a HEAD request) checks the same without counting.
 */
export async function openPreview(
  deps: PreviewLinksDeps,
  link: { id: string; signature: string },
  { countView = true }: { countView?: boolean } = {},
): Promise<PreviewAnswer> {
  const id = Number(link.id);
  if (!/^\d+$/.test(link.id) || !isRowId(id)) return { kind: "unknown" };
  const [token = "", signature = "", ...rest] = link.signature.split(".");
  if (rest.length > 0 || !/^[0-9a-f]{32}$/.test(token) || !deps.signer.verify("preview-link", signedPart(id, token), signature)) {
    // An address made before links had tokens (the id alone signed) ended with the migration that gave them one.
    return { kind: deps.signer.verify("preview-link", link.id, link.signature) ? "gone" : "unknown" };
  }
  const { rows } = await deps.db.query<PreviewLinkRow & { published: boolean; slug: string }>(
    `SELECT l.id, l.token, l.post_id, l.expires_at, l.views, p.published, p.slug
       FROM preview_links l JOIN posts p ON p.id = l.post_id WHERE l.id = $1 AND l.token = $2`,
    [id, token],
  );
  const [row] = rows;
  if (!row) return { kind: "gone" };
  // Published wins over expired: the link's reader can always reach the live post.
  if (row.published) return { kind: "published", path: (await getPost(deps, row.post_id, { includeDrafts: false })).url };
  const counted = await deps.db.query(`UPDATE preview_links SET views = views + $3 WHERE id = $1 AND expires_at > $2 RETURNING id`, [
    id,
    deps.now(),
    countView ? 1 : 0,
  ]);
  if (counted.rows.length === 0) return { kind: "gone" };
  return { kind: "preview", post: await getPost(deps, row.post_id, { includeDrafts: true }) };
}
