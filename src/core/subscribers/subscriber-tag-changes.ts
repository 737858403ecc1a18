import type { SqlExecutor } from "../db/sql-executor.ts";
import { subscriberFilterConditions } from "./subscriber-list.ts";
import type { SubscriberFilter } from "./subscriber-tags.schema.ts";
import { removeSubscriberTags, setSubscriberTags, subscriberTagSlug } from "./subscriber-tags.ts";

export interface SubscriberTagChange {
  ids?: number[] | undefined;
  filter?: SubscriberFilter | undefined;
  add: string[];
  remove: string[];
}

/**
 * The owner adds and removes subscriber tags on one person, a chosen few, or everyone a filtered
 * list shows (`filter`, read when the change is made), in one transaction. An added tag records the
 * owner as why; a tag both added and removed is removed. Answers how many people it was applied to.
 */
export async function changeSubscriberTags(deps: { db: SqlExecutor; now: () => Date }, change: SubscriberTagChange): Promise<number> {
  const remove = change.remove.map(subscriberTagSlug);
  const add = change.add.map(subscriberTagSlug).filter((slug) => !remove.includes(slug));
  return deps.db.transaction(async (tx) => {
    let ids: number[];
    if (change.filter) {
      const params: unknown[] = [];
      const where = subscriberFilterConditions(change.filter, params);
      const { rows } = await tx.query<{ id: number }>(
        `SELECT s.id FROM subscribers s ${where.length > 0 ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY s.id`,
        params,
      );
      ids = rows.map((row) => row.id);
    } else {
      const { rows } = await tx.query<{ id: number }>("SELECT id FROM subscribers WHERE id = ANY($1::int[]) ORDER BY id", [change.ids ?? []]);
      ids = rows.map((row) => row.id);
    }
    await setSubscriberTags(tx, ids, add, { source: "owner", detail: "set by the owner", at: deps.now() });
    await removeSubscriberTags(tx, ids, remove);
    return ids.length;
  });
}
