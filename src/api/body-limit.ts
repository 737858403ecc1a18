import { readUpTo } from "../core/shared/read-up-to.ts";

/**
 * The whole body, refused as soon as more than `limit` bytes have arrived (whatever the declared
 * length says): a declared length over the limit is refused before reading.
 */
export async function readLimitedBody(request: Request, limit: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) throw tooLarge();
  const body = await readUpTo(request.body, limit);
  if (!body) throw tooLarge();
  return body;
}
