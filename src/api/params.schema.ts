import { z } from "zod";

/** Postgres `integer` ids: 1 to 2,147,483,647, written without sign or leading zeros. */
const rowIdPattern = /^[1-9]\d{0,9}$/;
const maxRowId = 2_147_483_647;

/** `:id` as a row id; anything else names no row, answered 404 with `message`. */
export const rowIdParams = (message: string) =>
  z.object({
    id: z
      .string()
      .regex(rowIdPattern, message)
      .transform(Number)
      .refine((id) => id <= maxRowId, message),
  });
