/** Logs in as the admin of a running site and returns the session cookie to send back. */
export async function adminCookie(siteUrl: string, password: string, username = "admin"): Promise<string> {
  const login = await fetch(new URL("/api/auth/login", siteUrl), {
    method: "POST",
    // Non-GET calls must come from the site's own origin.
    headers: { origin: new URL(siteUrl).origin, "content-type": "application/json" },
    body: JSON.stringify({ username, password }),
  });
  if (!login.ok) throw new Error(`login failed: ${String(login.status)}`);
  // The session's cookie (a login also sets a device cookie, nf_device).
  const session = login.headers.getSetCookie().find((cookie) => /^(__Host-)?nf_session=/.test(cookie));
  return session?.split(";")[0] ?? "";
}
