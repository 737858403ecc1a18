import type { z } from "zod";
import { PayloadTooLargeError, ValidationError } from "../core/errors.ts";
import { maxFormBytes } from "../core/files/upload-limits.ts";
import { formTooLargeMessage } from "../core/messages.ts";
import { readLimitedBody } from "./body-limit.ts";
import { refuseControlCharacters } from "./control-characters.ts";
import { firstIssueMessage } from "./http.ts";

/**
 * Reads a multipart (or urlencoded) form and validates it: text fields arrive as strings, files
 * as `File`s (empty file inputs are dropped). Too large → 413, malformed → 400.
 */
export async function readForm<Schema extends z.ZodType>(request: Request, schema: Schema, limitBytes = maxFormBytes): Promise<z.output<Schema>> {
  const body = await readLimitedBody(request, limitBytes, () => new PayloadTooLargeError(formTooLargeMessage));
  let form: FormData;
  try {
    form = await new Response(body, { headers: request.headers }).formData();
  } catch {
    throw new ValidationError("The request body must be a multipart form");
  }
  const fields: Record<string, string | string[] | File> = {};
  for (const [name, value] of form) {
    if (typeof value !== "string" && value.size === 0 && value.name === "") continue;
    const earlier = fields[name];
    // A name given more than once (ticked checkboxes of one group) is the list of its texts.
    if (typeof value === "string" && typeof earlier === "string") fields[name] = [earlier, value];
    else if (typeof value === "string" && Array.isArray(earlier)) fields[name] = [...earlier, value];
    else fields[name] = value;
  }
  refuseControlCharacters(fields);
  const result = schema.safeParse(fields);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

/** A browser's own form post (urlencoded or multipart), as opposed to a script's JSON. */
export const isFormPost = (request: Request) =>
  /^(application\/x-www-form-urlencoded|multipart\/form-data)/.test(request.headers.get("content-type") ?? "");
