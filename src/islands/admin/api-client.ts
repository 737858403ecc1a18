/**
 * The dashboard's one way to call the API: same-origin cookies, JSON in and out, and errors that
 * carry the server's message. A 401 on any admin call means the session ended: the app listens
 * for it and returns to the login form.
 */

/** A non-ok answer: SPEC §8's '{status}: {body text}' unless the server sent `{ error }`. */
export class ApiError extends Error {
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.name = "ApiError";
    this.status = status;
  }
}

export const sessionEndedEvent = "nf:session-ended";

/** Turns an answer's status and body into the error the user sees. */
export function apiErrorFrom(status: number, statusText: string, bodyText: string): ApiError {
  try {
    const body = JSON.parse(bodyText) as { error?: unknown };
    if (typeof body.error === "string" && body.error) return new ApiError(status, body.error);
  } catch {
    // Not JSON: fall through to the raw text.
  }
  return new ApiError(status, `${String(status)}: ${bodyText || statusText}`);
}

/**
 * Which login the calls belong to: a new login or a logout moves it on, so a slow call made under
 * an older session (an upload that answers 401 after the owner has logged in again) ends nothing.
 */
let sessionEpoch = 0;

/** A login or logout happened: calls already under way belong to the session before it. */
export function startSessionEpoch(): void {
  sessionEpoch += 1;
}

/** Reports a 401 so the app can end the session (unless the call was the login itself). */
function reportUnauthorized(status: number, path: string, epoch: number): void {
  if (status !== 401 || path.startsWith("/api/auth/") || epoch !== sessionEpoch) return;
  window.dispatchEvent(new Event(sessionEndedEvent));
}

/** Calls `path` and returns the ok answer; a failure becomes an ApiError (a 401 ends the session). */
async function send(path: string, init: RequestInit = {}): Promise<Response> {
  const epoch = sessionEpoch;
  const response = await fetch(path, { ...init, credentials: "same-origin" });
  if (!response.ok) {
    reportUnauthorized(response.status, path, epoch);
    throw apiErrorFrom(response.status, response.statusText, await response.text());
  }
  return response;
}

/** Calls `path` and returns its JSON body (or null for 204). `body` objects are sent as JSON. */
export async function api<T>(path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const isForm = init.body instanceof FormData;
  const response = await send(path, {
    method: init.method ?? "GET",
    headers: init.body === undefined || isForm ? {} : { "content-type": "application/json" },
    body: init.body === undefined ? undefined : isForm ? (init.body as FormData) : JSON.stringify(init.body),
  });
  return (response.status === 204 ? null : await response.json()) as T;
}

/** Calls `path` and returns its body as a file (the CSV export); errors as `api`. */
export async function apiBlob(path: string): Promise<Blob> {
  return (await send(path)).blob();
}

/**
 * Sends a multipart form with upload progress (fetch cannot report it): `onProgress` gets 0–1.
 * Resolves with the JSON body; rejects with an ApiError like `api`.
 */
export function uploadForm<T>(path: string, method: "POST" | "PUT", form: FormData, onProgress: (fraction: number) => void): Promise<T> {
  const epoch = sessionEpoch;
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(method, path);
    request.withCredentials = true;
    request.upload.addEventListener("progress", (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    });
    request.addEventListener("load", () => {
      if (request.status >= 200 && request.status < 300) {
        onProgress(1);
        resolve(JSON.parse(request.responseText) as T);
        return;
      }
      reportUnauthorized(request.status, path, epoch);
      reject(apiErrorFrom(request.status, request.statusText, request.responseText));
    });
    request.addEventListener("error", () => reject(new Error("Network error")));
    request.send(form);
  });
}
