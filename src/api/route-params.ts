import { isRowId } from "../core/db/row-id.ts";
import { NotFoundError } from "../core/errors.ts";

/** The `:id` path parameter as a row id; anything but a positive integer is a 404 with `message`. */
export function idParam(params: Record<string, string>, message: string): number {
  const raw = params.id ?? "";
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : 0;
  if (!isRowId(id)) throw new NotFoundError(message);
  return id;
}
