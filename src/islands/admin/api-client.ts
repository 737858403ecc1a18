/**
 * The dashboard's one way to call the API, typed by the routes' own declarations: the path comes
 * from the route, the body is what its schema takes, the answer what its schema gives. Same-origin
 * cookies; errors carry the server's message.
 */
import type { z } from "zod";
import { pathWith, type PathParams } from "../../api/api-paths.ts";
import type { RouteAnswer, RouteDeclaration, RouteInput } from "../../api/declare-route.ts";

/** A non-ok answer: SPEC §8's '{status}: {body text}' unless the server sent `{ error }`. */
export class ApiError extends Error {
  readonly status: number;
  /** When the call was sent (ms since the epoch): a 401 for a call older than the session means nothing. */
  readonly sentAt: number;
  /** A 401 from a route that needs a session: the session has ended. */
  readonly endsSession: boolean;
  /** The server's machine-readable reason, when it sent one (e.g. `recent_sign_in_required`). */
  readonly code: string | undefined;

  constructor(status: number, message: string, details: { sentAt?: number; endsSession?: boolean; code?: string } = {}) {
    super(message);
    this.name = "ApiError";
    this.status = status;
    this.sentAt = details.sentAt ?? Date.now();
    this.endsSession = details.endsSession ?? false;
    this.code = details.code;
  }
}

/** Turns an answer's status and body into the error the user sees. */
export function apiErrorFrom(status: number, statusText: string, bodyText: string, details?: ConstructorParameters<typeof ApiError>[2]): ApiError {
  try {
    const body = JSON.parse(bodyText) as { error?: unknown; code?: unknown };
    if (typeof body.error === "string" && body.error) {
      return new ApiError(status, body.error, { ...details, ...(typeof body.code === "string" && { code: body.code }) });
    }
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return new ApiError(status, `${String(status)}: ${bodyText || statusText}`, details);
}

type Given<Schema> = Schema extends z.ZodType ? z.input<Schema> : never;

/** What a call of `Route` needs: its path values, its query, its body; nothing when it takes none. */
export type CallInput<Route extends RouteDeclaration> = (Route["params"] extends z.ZodType ? { params: PathParams<Route["path"]> } : unknown) &
  (Route["query"] extends z.ZodType ? { query?: Partial<Given<Route["query"]>> } : unknown) &
  (Route["body"] extends { schema: z.ZodType } ? { body: RouteInput<Route>["body"] } : unknown) & {
    /** Upload progress, 0–1 (a multipart body then goes by XMLHttpRequest: fetch cannot report it). */
    onUploadProgress?: (fraction: number) => void;
  };

type CallArgs<Route extends RouteDeclaration> = object extends CallInput<Route> ? [input?: CallInput<Route>] : [input: CallInput<Route>];

interface Loose {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  onUploadProgress?: (fraction: number) => void;
}

/** The URL of a call: the route's path with its values, and its query. */
export function urlOf(route: RouteDeclaration, input: Loose = {}): string {
  const path = input.params ? pathWith(route.path, input.params) : route.path;
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.set(name, String(value));
  const search = query.toString();
  return search ? `${path}?${search}` : path;
}

/** A multipart body from the schema's fields: files as parts, everything else as text. */
export function formDataOf(body: Record<string, string | number | boolean | File | null | undefined>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    form.append(name, value instanceof File ? value : String(value));
  }
  return form;
}

interface Sent {
  status: number;
  statusText: string;
  text: () => Promise<string>;
  blob: () => Promise<Blob>;
  /** The answer's `Link` header, if any. */
  link: string | null;
}

/** Sends one call; a non-ok answer becomes an ApiError. */
async function send(route: RouteDeclaration, input: Loose, url = urlOf(route, input)): Promise<Sent> {
  const multipart = route.body?.type === "multipart";
  const body =
    input.body === undefined ? undefined : multipart ? formDataOf(input.body as Parameters<typeof formDataOf>[0]) : JSON.stringify(input.body);
  const sentAt = Date.now();
  const answer =
    multipart && input.onUploadProgress && body instanceof FormData
      ? await sendWithProgress(route.method, url, body, input.onUploadProgress)
      : await fetchAnswer(route.method, url, body);
  if (answer.status < 200 || answer.status >= 300) {
    throw apiErrorFrom(answer.status, answer.statusText, await answer.text(), {
      sentAt,
      endsSession: answer.status === 401 && route.access !== "public",
    });
  }
  return answer;
}

async function fetchAnswer(method: string, url: string, body: string | FormData | undefined): Promise<Sent> {
  const response = await fetch(url, {
    method,
    credentials: "same-origin",
    ...(typeof body === "string" && { headers: { "content-type": "application/json" } }),
    ...(body !== undefined && { body }),
  });
  return {
    status: response.status,
    statusText: response.statusText,
    text: () => response.text(),
    blob: () => response.blob(),
    link: response.headers.get("link"),
  };
}

function sendWithProgress(method: string, url: string, form: FormData, onProgress: (fraction: number) => void): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, url);
    request.withCredentials = true;
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300) onProgress(1);
      const text = request.responseText;
      resolve({
        status: request.status,
        statusText: request.statusText,
        text: () => Promise.resolve(text),
        blob: () => Promise.resolve(new Blob([text])),
        link: request.getResponseHeader("link"),
      });
    });
    request.addEventListener("error", () => reject(new Error("Network error")));
    request.send(form);
  });
}

/** Calls a declared route and returns its JSON answer (undefined for 204). */
export async function callApi<Route extends RouteDeclaration>(route: Route, ...[input]: CallArgs<Route>): Promise<RouteAnswer<Route>> {
  const answer = await send(route, input ?? {});
  const text = await answer.text();
  return (answer.status === 204 || text === "" ? undefined : JSON.parse(text)) as RouteAnswer<Route>;
}

/** The URL of a `Link` header's `rel="next"` (RFC 8288), if it has one. */
export function nextLinkOf(link: string | null): string | undefined {
  return link?.match(/<([^>]*)>\s*;\s*rel="?next"?/)?.[1];
}

/**
 * Calls a declared list route for one page: its rows, and the next page's URL from the answer's
 * `Link: <…>; rel="next"` (which keeps the search and filters). With `next`, that URL is called
 * as it is.
 */
export async function callApiPage<Route extends RouteDeclaration>(
  route: Route,
  input: CallInput<Route>,
  next?: string,
): Promise<{ rows: RouteAnswer<Route>; next: string | undefined }> {
  const answer = await send(route, input, next);
  return { rows: JSON.parse(await answer.text()) as RouteAnswer<Route>, next: nextLinkOf(answer.link) };
}

/** Calls a declared route whose answer is a file (the CSV export) and returns it. */
export async function fetchApiFile<Route extends RouteDeclaration>(route: Route, ...[input]: CallArgs<Route>): Promise<Blob> {
  return (await send(route, input ?? {})).blob();
}
