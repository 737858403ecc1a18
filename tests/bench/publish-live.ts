/**
 * Publish → live under a running `npm start`: change a setting through the API (as the dashboard
 * does) and time until the home page shows it.
 *   node tests/bench/publish-live.ts <siteUrl> <adminPassword> [runs]
 */
export async function measurePublishLive(siteUrl: string, password: string, runs = 3): Promise<number[]> {
  const origin = new URL(siteUrl).origin;
  const login = await fetch(new URL("/api/auth/login", siteUrl), {
    method: "POST",
    headers: { origin, "content-type": "application/json" },
    body: JSON.stringify({ username: "admin", password }),
  });
  if (!login.ok) throw new Error(`login failed: ${String(login.status)}`);
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const seconds: number[] = [];
  for (let run = 0; run < runs; run++) {
    const title = `Live at ${String(Date.now())}`;
    const started = performance.now();
    const put = await fetch(new URL("/api/site-settings/hero_title", siteUrl), {
      method: "PUT",
      headers: { origin, cookie, "content-type": "application/json" },
      body: JSON.stringify({ value: title }),
    });
    if (!put.ok) throw new Error(`update failed: ${String(put.status)}`);
    for (;;) {
      const html = await (await fetch(siteUrl)).text();
      if (html.includes(title)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    seconds.push((performance.now() - started) / 1000);
  }
  return seconds.sort((a, b) => a - b);
}

if (import.meta.main) {
  const [siteUrl = "http://localhost:8888", password = "", runs = "3"] = process.argv.slice(2);
  const times = await measurePublishLive(siteUrl, password, Number(runs));
  console.log(`publish → live: ${times.map((t) => t.toFixed(2)).join(" s, ")} s`);
}
