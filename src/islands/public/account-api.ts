/**
 * The reader's API paths, written out: importing `apiPaths` would put the whole table in a chunk
 * shared with every page's script (an extra request on every page, and /account over its 5 KB).
 * `account-api.test.ts` holds them equal to `apiPaths`.
 */
export const readerApi = {
  signIn: "/api/readers/sign-in",
  verify: "/api/readers/sign-in/verify",
  signOut: "/api/readers/sign-out",
  me: "/api/readers/me",
} as const;

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
