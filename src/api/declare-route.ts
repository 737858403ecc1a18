import type { z } from "zod";
import type { ApiScope } from "../core/api-keys/api-key.schema.ts";

/**
 * A route's contract — method, path, access, the schemas of what comes in and of every answer —
 * stated once. The shared handler validates requests from it, the OpenAPI document is generated
 * from it, and the dashboard's client is typed by it. Nothing here runs on the server only, so
 * the islands may import declarations.
 */

export type Method = "GET" | "POST" | "PUT" | "DELETE";

/**
 * `public`: anyone. `admin`: 401 without a live session. `session`: anyone, but the answer depends
 * on the session (a draft, or the dashboard's extra fields, only with one).
 */
export type Access = "public" | "admin" | "session";

/** One successful answer of a route. */
export type Answer =
  | { kind: "json"; description: string; schema: z.ZodType }
  | { kind: "empty"; description: string }
  | { kind: "file"; description: string; contentType: string }
  | { kind: "redirect"; description: string };

export interface RouteDeclaration {
  method: Method;
  /** From `apiPaths`, with `:name` segments. */
  path: string;
  access: Access;
  /**
   * What an API key (`Authorization: Bearer`) needs to make the call. Every `admin` route states it:
   * a scope, or `none` for what only the owner's session may do (security, backups, restores, keys,
   * settings). On a `session` route, a key with the scope gets the owner's answer, as a session does.
   */
  scope?: ApiScope | "none";
  /** One line for the API reference. */
  summary: string;
  /** Path parameters; a value that fails its schema is a 404 with the schema's message. */
  params?: z.ZodType<Record<string, unknown>, Record<string, string>>;
  query?: z.ZodType<Record<string, unknown>, Record<string, string | undefined>>;
  /**
   * The body: JSON, or a multipart form (text fields as strings, files as `File`s). `form` adds a
   * browser's own form post (no JavaScript): it is answered with a redirect to `form.success` (a
   * path, or one made from the handler's answer), or to `form.failure` when it failed in any way
   * (4xx or 5xx; a 503 goes to the page beside it, `failurePage` in api-handler.ts).
   */
  body?: {
    type: "json" | "multipart";
    schema: z.ZodType;
    form?: { success: string | ((answer: unknown) => string); failure: string };
    /** A JSON body's limit in bytes when below the default 64 KB (413 beyond). */
    maxBytes?: number;
  };
  /**
   * `true`: a GET whose answer without a session cookie is the same for everyone, so it may be
   * shared between requests for a moment (shared-reads.ts).
   */
  shared?: boolean;
  /**
   * `token`: the same-origin check does not apply, because the request carries a signed token that
   * is checked instead and comes from outside the site by design — RFC 8058's one-click unsubscribe,
   * POSTed by a mail provider with no cookie and no Origin. Only for routes that change nothing
   * without a valid token.
   */
  crossSite?: "token";
  /** The successful answers by status; the first JSON one is what a handler's plain value becomes. */
  answers: { readonly [status: number]: Answer };
  /** Error statuses this route answers beyond those its shape implies (400, 401, 403, 404, 405, 413, 415, 429, 503). */
  errors?: readonly number[];
  /**
   * Error statuses answered with an HTML page rather than JSON `{ error }`: the pages a person
   * reaches from an email's link (a bad or expired token). Each must be one of the route's errors.
   */
  htmlErrors?: readonly number[];
}

/** Declares a route, keeping every schema's exact type for the handler and the client. */
export function declareRoute<const Route extends RouteDeclaration>(route: Route): Route {
  return route;
}

/** A JSON answer with its schema. */
export function jsonAnswer<Schema extends z.ZodType>(schema: Schema, description: string) {
  return { kind: "json", schema, description } as const;
}

export const emptyAnswer = (description: string) => ({ kind: "empty", description }) as const;

export const fileAnswer = (contentType: string, description: string) => ({ kind: "file", contentType, description }) as const;

export const redirectAnswer = (description: string) => ({ kind: "redirect", description }) as const;

type Parsed<Schema> = Schema extends z.ZodType ? z.output<Schema> : undefined;
type Given<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;

export type RouteParams<Route extends RouteDeclaration> = Parsed<Route["params"]>;
export type RouteQuery<Route extends RouteDeclaration> = Parsed<Route["query"]>;
export type RouteBody<Route extends RouteDeclaration> = Route["body"] extends { schema: infer Schema } ? Parsed<Schema> : undefined;

/** What a caller gives: path parameters, query and body, as the schemas take them. */
export interface RouteInput<Route extends RouteDeclaration> {
  params: Given<Route["params"]>;
  query: Given<Route["query"]>;
  body: Route["body"] extends { schema: infer Schema } ? Given<Schema> : undefined;
}

type JsonSchemas<Route extends RouteDeclaration> = {
  [Status in keyof Route["answers"]]: Route["answers"][Status] extends { kind: "json"; schema: infer Schema extends z.ZodType } ? Schema : never;
}[keyof Route["answers"]];

/**
 * What a handler may return: the JSON answer's data (sent with that answer's status), nothing for a
 * route whose answer is empty (204), or a `Response` of its own (files, cookies, redirects).
 */
export type RouteAnswerData<Route extends RouteDeclaration> = [JsonSchemas<Route>] extends [never] ? void : z.input<JsonSchemas<Route>>;

/** What a caller receives from a JSON answer (`undefined` for 204). */
export type RouteAnswer<Route extends RouteDeclaration> = [JsonSchemas<Route>] extends [never] ? undefined : z.output<JsonSchemas<Route>>;

/** The answer a handler's plain return value becomes: the first declared one, with its status. */
export function firstAnswerOf(route: RouteDeclaration): { status: number; answer: Answer } {
  const [status, answer] = Object.entries(route.answers)[0] ?? [];
  if (!status || !answer) throw new Error(`${route.method} ${route.path} declares no answer`);
  return { status: Number(status), answer };
}
