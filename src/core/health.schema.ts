import { z } from "zod";

/** The answer of `GET /api/health`. */
export const healthSchema = z.object({
  status: z.literal("ok"),
  database: z.literal("ok"),
  databaseMs: z.number().meta({ description: "Round trip to the database, in milliseconds" }),
});

export type Health = z.output<typeof healthSchema>;
