/** What a page script's API call answered: the status (0 when the network failed) and the JSON body (`{}` when none). */
export interface JsonAnswer {
  status: number;
  data: Record<string, unknown>;
}

/**
 * A same-origin API call from a public page's plain script (the reader's page, the comments'
 * thread): JSON in, `{ status, data }` out, never a throw, so each caller shows an answer's own
 * `error` or its page's fallback words.
 */
export async function callJson(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  try {
    const response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const data = response.status === 204 ? {} : ((await response.json().catch(() => ({}))) as Record<string, unknown>);
    return { status: response.status, data };
  } catch {
    return { status: 0, data: {} };
  }
}
