/** Row ids are Postgres `integer`s: anything else names no row (and must not reach a query). */
export function isRowId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= 2_147_483_647;
}
