import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/**
 * An old blog's image host on loopback, for import tests: any `.png` or `.jpg` path answers a
 * small real image of that type, except names containing `missing` (404). `requests` counts calls.
 */
export async function startImageServer(): Promise<{ url: string; requests: string[]; stop(): Promise<void> }> {
  const png = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#c33" } })
    .png()
    .toBuffer();
  const jpg = await sharp({ create: { width: 30, height: 30, channels: 3, background: "#36c" } })
    .jpeg()
    .withExif({ IFD0: { Copyright: "old blog" } })
    .toBuffer();
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    requests.push(path);
    const body = path.includes("missing") ? null : path.endsWith(".png") ? png : path.endsWith(".jpg") ? jpg : null;
    if (!body) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": path.endsWith(".png") ? "image/png" : "image/jpeg", "content-length": body.byteLength }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
