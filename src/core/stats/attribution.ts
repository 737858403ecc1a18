import type { SqlQueryable } from "../db/sql-executor.ts";
import { dailySalt, visitorHash } from "./daily-salt.ts";
import { normalPath } from "./page-view.ts";
import type { Day } from "./stats-days.ts";

/** What a form's request says about where it was used; none of it is stored. */
export interface FormRequest {
  /** The `Referer` the browser sent with the form (same-origin: the page's full address). */
  referer: string | null;
  userAgent: string;
  clientIp: string;
  siteHosts: readonly string[];
}

/** The page a form was used on and the source of the visit that brought the person. */
export interface Attribution {
  path: string;
  source: string;
}

/**
 * The page comes from the form's `Referer` (the site sends `strict-origin-when-cross-origin`, so a
 * same-site form carries its page's address; "unknown" without one). The source is the visit's:
 * today's visitor hash, made as the beacon makes it, finds the first outside source of today's page
 * views ("direct" without one). The form's island sends nothing more, so it stays as small as it was.
 */
export async function attributeForm(db: SqlQueryable, day: Day, form: FormRequest): Promise<Attribution> {
  let path = "unknown";
  if (form.referer) {
    try {
      const page = new URL(form.referer);
      if (form.siteHosts.includes(page.hostname)) path = normalPath(page.pathname);
    } catch {
      // A malformed Referer names no page.
    }
  }
  const { salt } = await dailySalt(db, day);
  const visitor = visitorHash(salt, form.clientIp, form.userAgent, form.siteHosts);
  const { rows } = await db.query<{ source: string }>(
    `SELECT source FROM stats_events WHERE day = $1::date AND visitor = $2 AND source <> '' ORDER BY at, id LIMIT 1`,
    [day, visitor],
  );
  return { path, source: rows[0]?.source ?? "direct" };
}
