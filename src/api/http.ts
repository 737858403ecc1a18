import type { z } from "zod";
import { PayloadTooLargeError, ValidationError } from "../core/errors.ts";
import { readLimitedBody } from "./body-limit.ts";
import { refuseControlCharacters } from "./control-characters.ts";

/** A JSON answer; `undefined` data with 204 sends no body. */
export function json(data: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("content-type", "application/json; charset=utf-8");
  headers.set("x-content-type-options", "nosniff");
  if (!headers.has("cache-control")) headers.set("cache-control", "no-store");
  return new Response(JSON.stringify(data), { ...init, headers });
}

export function errorResponse(status: number, message: string, headers?: HeadersInit): Response {
  return json({ error: message }, { status, ...(headers && { headers }) });
}

/** The first problem zod found, worded for the user (schemas carry the SPEC's messages). */
export function firstIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid input";
  return issue.message;
}

/** The most a JSON body may weigh: every JSON call carries a few short fields. */
export const maxJsonBytes = 64 * 1024;

/** Reads a JSON body (at most `maxJsonBytes`: 413 beyond) and validates it; malformed JSON or a failed check is a 400. */
export async function readJson<Schema extends z.ZodType>(request: Request, schema: Schema, limit = maxJsonBytes): Promise<z.output<Schema>> {
  const bytes = await readLimitedBody(
    request,
    limit,
    () => new PayloadTooLargeError(`The request body is too large (the limit is ${String(Math.round(limit / 1024))} KB)`),
  );
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ValidationError("The request body must be valid JSON");
  }
  refuseControlCharacters(body);
  const result = schema.safeParse(body);
  if (!result.success) throw new ValidationError(firstIssueMessage(result.error));
  return result.data;
}

/** A request from the site itself: its Origin is the site's (or, without one, the browser says same-origin). */
export function isSameOrigin(request: Request, siteUrl: string | undefined): boolean {
  const origin = request.headers.get("origin");
  if (origin) return new Set([new URL(request.url).origin, ...(siteUrl ? [new URL(siteUrl).origin] : [])]).has(origin);
  return request.headers.get("sec-fetch-site") === "same-origin";
}
