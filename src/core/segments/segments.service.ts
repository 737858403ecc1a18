import { isRowId } from "../db/row-id.ts";
import type { SqlQueryable } from "../db/sql-executor.ts";
import { ConflictError, NotFoundError, ValidationError } from "../errors.ts";
import { parseSegment } from "./segment-grammar.ts";
import { audienceCondition, segmentIds } from "./segment-sql.ts";
import type { SavedSegment, SegmentForm } from "./segment.schema.ts";

export type SegmentsDeps = { db: SqlQueryable; now: () => Date };

/** An expression the owner typed now: well formed and naming only topics and tags that exist (400 otherwise). */
export async function checkSegment(db: SqlQueryable, expression: string): Promise<string> {
  const tree = parseSegment(expression);
  await segmentIds(db, tree, { strict: true });
  return expression.trim();
}

/**
 * The expression an audience stands for: a saved segment's (by id, 400 when there is none) or the
 * one given, checked. Undefined: everyone (null).
 */
export async function resolveAudience(db: SqlQueryable, segment: string | number | undefined): Promise<string | null> {
  if (segment === undefined) return null;
  if (typeof segment === "number") {
    const { rows } = isRowId(segment)
      ? await db.query<{ expression: string }>("SELECT expression FROM segments WHERE id = $1", [segment])
      : { rows: [] };
    if (!rows[0]) throw new ValidationError(`No saved segment has the id ${String(segment)}`);
    return checkSegment(db, rows[0].expression);
  }
  return checkSegment(db, segment);
}

/** How many people a post's email to this audience would be fixed for now (the rule of `audienceCondition`). */
export async function countAudience(db: SqlQueryable, segment: string | null): Promise<number> {
  const params: unknown[] = [];
  const where = await audienceCondition(db, segment, params, { strict: true });
  const { rows } = await db.query<{ count: number }>(`SELECT count(*)::int AS count FROM subscribers s WHERE ${where}`, params);
  return rows[0]?.count ?? 0;
}

interface SegmentRow {
  id: number;
  name: string;
  expression: string;
  created_at: Date | string;
  updated_at: Date | string;
}

const toSegment = (row: SegmentRow): SavedSegment => ({
  id: row.id,
  name: row.name,
  segment: row.expression,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
});

const columns = "id, name, expression, created_at, updated_at";
const nameTaken = (name: string) => new ConflictError(`A saved segment is already named '${name}'`);

/** Postgres' unique violation: the name taken by a save that ran at the same time. */
const isUniqueViolation = (error: unknown) => typeof error === "object" && error !== null && (error as { code?: unknown }).code === "23505";

/** The saved segments by name. */
export async function listSegments(deps: Pick<SegmentsDeps, "db">): Promise<SavedSegment[]> {
  const { rows } = await deps.db.query<SegmentRow>(`SELECT ${columns} FROM segments ORDER BY lower(name), id`);
  return rows.map(toSegment);
}

export async function getSegment(deps: Pick<SegmentsDeps, "db">, id: number): Promise<SavedSegment> {
  const { rows } = isRowId(id) ? await deps.db.query<SegmentRow>(`SELECT ${columns} FROM segments WHERE id = $1`, [id]) : { rows: [] };
  if (!rows[0]) throw new NotFoundError("Segment not found");
  return toSegment(rows[0]);
}

/** Saves a segment under a name (409 when the name is taken, any case); the expression is checked as a send's is. */
export async function createSegment(deps: SegmentsDeps, form: SegmentForm): Promise<SavedSegment> {
  const expression = await checkSegment(deps.db, form.segment);
  try {
    const { rows } = await deps.db.query<SegmentRow>(
      `INSERT INTO segments (name, expression, created_at, updated_at) VALUES ($1, $2, $3, $3) RETURNING ${columns}`,
      [form.name, expression, deps.now()],
    );
    return toSegment(rows[0] as SegmentRow);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(form.name);
    throw error;
  }
}

/** Changes a saved segment; sends started with it keep the expression they were started with. */
export async function updateSegment(deps: SegmentsDeps, id: number, form: SegmentForm): Promise<SavedSegment> {
  await getSegment(deps, id);
  const expression = await checkSegment(deps.db, form.segment);
  try {
    const { rows } = await deps.db.query<SegmentRow>(
      `UPDATE segments SET name = $2, expression = $3, updated_at = $4 WHERE id = $1 RETURNING ${columns}`,
      [id, form.name, expression, deps.now()],
    );
    if (!rows[0]) throw new NotFoundError("Segment not found");
    return toSegment(rows[0]);
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken(form.name);
    throw error;
  }
}

export async function deleteSegment(deps: Pick<SegmentsDeps, "db">, id: number): Promise<void> {
  const { rows } = isRowId(id) ? await deps.db.query("DELETE FROM segments WHERE id = $1 RETURNING id", [id]) : { rows: [] };
  if (rows.length === 0) throw new NotFoundError("Segment not found");
}
