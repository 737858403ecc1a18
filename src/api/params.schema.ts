import { z } from "zod";

/** Postgres `integer` ids: 1 to 2,147,483,647, written without sign or leading zeros. */
const rowIdPattern = /^[1-9]\d{0,9}$/;
const maxRowId = 2_147_483_647;

/** A row id written as text (a path or query value): at most `integer`'s range, so no id past it reaches a query. */
const rowIdText = (message: string) =>
  z
    .string()
    .regex(rowIdPattern, message)
    .transform(Number)
    .refine((id) => id <= maxRowId, message);

/** `:id` as a row id; anything else names no row, answered 404 with `message`. */
export const rowIdParams = (message: string) => z.object({ id: rowIdText(message) });

/** A path value holding a row id (beside other params); anything else names no row: 404 with `message`. */
export const rowIdParam = (message: string) => rowIdText(message);

/** `?name=` holding a row id: anything else (2147483648 included) is a 400 with `message`. */
export const rowIdQuery = (message: string) => rowIdText(message);

const pageNumber = (name: string, max: number) =>
  z
    .string()
    .regex(/^[1-9]\d{0,5}$/, `${name} must be a whole number from 1 to ${String(max)}`)
    .transform(Number)
    .refine((value) => value <= max, `${name} must be a whole number from 1 to ${String(max)}`)
    .optional();

/**
 * `?limit=&page=` on a list: both absent, the whole list; `limit` alone, its first page. Each is a
 * whole number (`limit` at most `maxLimit`).
 */
export const listPageQuery = (maxLimit: number) => ({
  limit: pageNumber("limit", maxLimit).meta({ description: `Rows per page, 1 to ${String(maxLimit)}; without it, the whole list` }),
  page: pageNumber("page", 100_000).meta({ description: "Which page, from 1 (default 1); only with `limit`" }),
});

/** The page a `listPageQuery` asks for, or undefined for the whole list. */
export function requestedPage(query: { limit?: number | undefined; page?: number | undefined }): { limit: number; page: number } | undefined {
  return query.limit === undefined ? undefined : { limit: query.limit, page: query.page ?? 1 };
}
