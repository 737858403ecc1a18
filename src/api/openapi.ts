import { z } from "zod";
import type { Answer, RouteDeclaration } from "./declare-route.ts";

type JsonSchema = Record<string, unknown>;

/** What each error status means, for every route that may answer it. */
const errorMeanings: Record<number, string> = {
  400: "Invalid input (a body, query or path value that fails its check, or a control character in any of them): `error` says what to fix",
  401: "No live admin session, an API key unknown or revoked (or, for a login, a wrong username, password or code)",
  403:
    "A cross-site request, an API key without the operation's scope (`error` names it) or on an operation no key may call, a download or backup link that is invalid or expired, a security change without a sign-in in the last 5 minutes " +
    "(`code: recent_sign_in_required`), or a failed confirmation of it (`code: sign_in_failed`)",
  404: "No such item (a path value that names nothing, or is not a valid id)",
  409: "The request conflicts with the item's current state: `error` says how",
  413: "The body is too large",
  415: "The file's type is not allowed",
  429: "Too many requests: wait `Retry-After` seconds",
  502: "A payment provider failed to answer: try again shortly",
  503: "The database is unavailable: try again in `Retry-After` seconds",
};

/** The pages a person reaches from an email's link say what went wrong in words, as HTML. */
const htmlErrorMeanings: Record<number, string> = {
  403: "The link is not valid (forged, altered, or a button pressed on another site): a page saying so",
  404: "The link names a subscriber who no longer exists: a page saying so",
};

/** Statuses whose answer says when to try again. */
const retryAfterStatuses = new Set([429, 503]);

const errorSchema: JsonSchema = {
  type: "object",
  properties: {
    error: { type: "string" },
    code: { type: "string", description: "A machine-readable reason, on the errors a client acts on (e.g. `recent_sign_in_required`)" },
  },
  required: ["error"],
};

/**
 * The OpenAPI 3.1 document of the declared routes (its JSON Schemas are draft 2020-12, as 3.1
 * expects): request schemas as the API takes them, answers as it gives them. `sessionCookie` is the
 * session cookie's name as the asking browser gets it (`__Host-nf_session` over https).
 */
export function buildOpenApiDocument(
  contract: Record<string, Record<string, RouteDeclaration>>,
  sessionCookie = "nf_session",
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [tag, routes] of Object.entries(contract)) {
    for (const [name, route] of Object.entries(routes)) {
      const path = route.path.replace(/:([A-Za-z]+)/g, "{$1}");
      paths[path] ??= {};
      paths[path][route.method.toLowerCase()] = operation(tag, name, route);
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "No Filter API",
      version: "1.0.0",
      description:
        "The API behind the No Filter site and its dashboard. JSON in and out except multipart uploads, the CSV export and files. " +
        "State-changing calls with the session cookie (`POST /api/auth/login` sets it) must come from the site's own origin. " +
        "Admin calls need that session, or an API key with the operation's scope (`x-scope`) as `Authorization: Bearer`, from anywhere. " +
        "Errors are JSON `{ error }` except the pages a person opens from an email's link, which answer HTML. " +
        "A path called with a method it does not take answers 405 with `Allow` listing the ones it does.",
    },
    // Relative: the origin that serves this document (the site's own), as OpenAPI resolves it.
    servers: [{ url: "/", description: "The site that serves this document" }],
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: sessionCookie },
        apiKey: {
          type: "http",
          scheme: "bearer",
          description:
            "An API key made in the dashboard (Integrations), sent as `Authorization: Bearer nf_…`. It reaches the operations whose " +
            "`x-scope` is one of its scopes; 403 names a missing scope; 600 calls a minute, then 429.",
        },
      },
      schemas: { Error: errorSchema },
      headers: {
        RetryAfter: { description: "Seconds to wait before trying again", schema: { type: "string", pattern: "^\\d+$" } },
        Allow: { description: "The methods the path takes, comma-separated", schema: { type: "string" } },
      },
      responses: {
        MethodNotAllowed: {
          description: "The path exists but not with this method (a client built from an older document, say): `Allow` lists the methods it takes",
          headers: { Allow: { $ref: "#/components/headers/Allow" } },
          content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
        },
      },
    },
  };
}

function operation(tag: string, name: string, route: RouteDeclaration): Record<string, unknown> {
  const parameters = [...parametersOf(route.params, "path"), ...parametersOf(route.query, "query")];
  const responses: Record<string, unknown> = {};
  for (const [status, answer] of Object.entries(route.answers)) responses[status] = answerObject(answer);
  const htmlErrors = new Set(route.htmlErrors ?? []);
  for (const status of errorStatuses(route)) {
    if (status === 405) {
      responses["405"] = { $ref: "#/components/responses/MethodNotAllowed" };
      continue;
    }
    const html = htmlErrors.has(status);
    responses[String(status)] = {
      description: (html ? htmlErrorMeanings[status] : errorMeanings[status]) ?? "Error",
      ...(retryAfterStatuses.has(status) && { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" } } }),
      content: html ? { "text/html": { schema: { type: "string" } } } : { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return {
    operationId: `${tag}.${name}`,
    tags: [tag],
    summary: route.summary,
    ...(parameters.length > 0 && { parameters }),
    ...(route.body && { requestBody: requestBody(route.body) }),
    ...security(route),
    responses,
  };
}

/**
 * Who may call: the session, or an API key with the route's scope (the scope named in the bearer
 * requirement, and as `x-scope`, `none` when no key may). `session` routes answer anyone, the owner
 * more; `public` ones need nothing (`security: []`).
 */
function security(route: RouteDeclaration): Record<string, unknown> {
  if (route.access === "public") return { security: [] };
  const key = route.scope && route.scope !== "none" ? [{ apiKey: [route.scope] }] : [];
  const requirements = [...(route.access === "session" ? [{}] : []), { session: [] }, ...key];
  return { security: requirements, "x-scope": route.scope ?? "none" };
}

/**
 * The error statuses a route's shape implies, plus the ones it declares. Every route may answer 400
 * (a control character in a path or query value is refused before any route's own check), 405 (the
 * path with another method) and 503.
 */
function errorStatuses(route: RouteDeclaration): number[] {
  const statuses = new Set<number>([400, 405, 503, ...(route.errors ?? [])]);
  for (const status of route.htmlErrors ?? []) {
    if (!statuses.has(status)) throw new Error(`${route.method} ${route.path}: an HTML error ${String(status)} that is not one of its errors`);
  }
  const keyAllowed = route.scope !== undefined && route.scope !== "none";
  // No session, or an API key unknown or revoked.
  if (route.access === "admin" || keyAllowed) statuses.add(401);
  // An API key: refused for its scope, or over its calls a minute.
  if (route.access === "admin") statuses.add(403);
  if (keyAllowed) statuses.add(429);
  // Not from the site's own origin (a token-checked route declares its own 403, if any).
  if (route.method !== "GET" && route.crossSite !== "token") statuses.add(403);
  if (route.params) statuses.add(404);
  if (route.body) statuses.add(413);
  if (route.body?.type === "multipart") statuses.add(415);
  return [...statuses].sort((a, b) => a - b);
}

function parametersOf(schema: z.ZodType | undefined, where: "path" | "query"): unknown[] {
  if (!schema) return [];
  const json = toJsonSchema(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: where,
      required: where === "path" || required.has(name),
      ...(typeof description === "string" && { description }),
      schema: propertySchema,
    };
  });
}

function requestBody(body: NonNullable<RouteDeclaration["body"]>): Record<string, unknown> {
  const schema = toJsonSchema(body.schema, "input", body.type === "multipart" ? "file" : "object");
  const content: Record<string, unknown> = body.type === "multipart" ? { "multipart/form-data": { schema } } : { "application/json": { schema } };
  if (body.form) content["application/x-www-form-urlencoded"] = { schema };
  return { required: true, content };
}

function answerObject(answer: Answer): Record<string, unknown> {
  switch (answer.kind) {
    case "json":
      return { description: answer.description, content: { "application/json": { schema: toJsonSchema(answer.schema, "output") } } };
    case "file":
      return { description: answer.description, content: { [answer.contentType]: { schema: { type: "string", format: "binary" } } } };
    case "redirect":
      return { description: answer.description, headers: { location: { schema: { type: "string" } } } };
    case "empty":
      return { description: answer.description };
  }
}

/**
 * zod's own JSON Schema, with what JSON Schema cannot say put in its terms: a custom check is a
 * `File` in a multipart form (a binary string) and a WebAuthn object in JSON (the browser's
 * `PublicKeyCredential…JSON`); a value read through a transform is described by what it accepts.
 */
function toJsonSchema(schema: z.ZodType, io: "input" | "output", custom: "file" | "object" = "object"): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      const def = (zodSchema as unknown as { _zod: { def: { type: string } } })._zod.def;
      if (def.type === "custom" && custom === "file") {
        jsonSchema.type = "string";
        jsonSchema.format = "binary";
      } else if (def.type === "custom") {
        jsonSchema.type = "object";
      }
    },
  }) as JsonSchema;
  delete json.$schema;
  return json;
}
