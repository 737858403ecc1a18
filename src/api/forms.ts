import type { z } from "zod";
import { PayloadTooLargeError, ValidationError } from "../core/errors.ts";
import { maxFormBytes } from "../core/files/upload-limits.ts";
import { formTooLargeMessage } from "../core/messages.ts";
import { firstIssueMessage } from "./http.ts";

/**
 * Reads a multipart (or urlencoded) form and validates it: text fields arrive as strings, files
 * as `File`s (empty file inputs are dropped). Too large → 413, malformed → 400.
 */
export async function readForm<Schema extends z.ZodType>(request: Request, schema: Schema, limitBytes = maxFormBytes): Promise<z.output<Schema>> {
  const tooLarge = () => new PayloadTooLargeError(formTooLargeMessage);
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limitBytes) throw tooLarge();
  const body = await readLimitedBody(request, limitBytes, tooLarge);
  let form: FormData;
  try {
    form = await new Response(body, { headers: request.headers }).formData();
  } catch {
    throw new ValidationError("The request body must be a multipart form");
  }
  const fields: Record<string, string | File> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" && value.size === 0 && value.name === "") continue;
    fields[name] = value;
  }
  const result = schema.safeParse(fields);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

/**
 * The whole body, refused as soon as more than `limit` bytes have arrived (whatever the declared
 * length says). Buffered on purpose: a parser fed a stream that errors midway throws unhandled.
 */
async function readLimitedBody(request: Request, limit: number, tooLarge: () => Error): Promise<Uint8Array<ArrayBuffer>> {
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/** A browser's own form post (urlencoded or multipart), as opposed to a script's JSON. */
export const isFormPost = (request: Request) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(request.headers.get("content-type") ?? "");
