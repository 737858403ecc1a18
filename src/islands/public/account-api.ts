/** The reader's calls from `/account` and its Continue page: JSON in, `{ status, data }` out, never a throw for an answer. */
export async function callReaders(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
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
    return { status: 0, data: { error: "You seem to be offline. Check your connection and try again." } };
  }
}

/** The answer's own words, or a plain fallback. */
export function errorOf(answer: { status: number; data: Record<string, unknown> }): string {
  return typeof answer.data.error === "string" ? answer.data.error : "Something went wrong. Please try again.";
}
