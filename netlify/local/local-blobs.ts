import { randomBytes } from "node:crypto";
import { mkdir, readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { setEnvironmentContext } from "@netlify/blobs";
import { BlobsServer } from "@netlify/blobs/server";
import { sendWebResponse, toWebRequest } from "./node-http.ts";

/** The Blobs emulation `npm start` runs: on this machine only, behind a random token. */
export interface LocalBlobs {
  /** `http://127.0.0.1:<port>` */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** The parts of @netlify/blobs' `BlobsServer` (11.1.x) used here, private in its types. */
interface BlobsServerInternals {
  handleRequest(request: Request): Promise<Response>;
  /** The base of the signed URLs it hands out. */
  address: string;
}

/**
 * Starts the Blobs emulation on 127.0.0.1 and points this process's Blobs context at it.
 *
 * @netlify/dev 5.1.3 starts its own `BlobsServer`, which listens on every interface (its HTTP
 * server calls `listen(port)` with no host) behind a token from `Math.random()`: anyone on the
 * network could read and write the site's files. Its options have no host, so `npm start` turns
 * that emulation off (`blobs: { enabled: false }`) and serves the same `BlobsServer` handler from a
 * server of its own, bound to loopback, with a token from `crypto.randomBytes`. The files stay in
 * `.netlify/blobs-serve` under the same site ID, so existing uploads are still there.
 */
export async function startLocalBlobs(stateDir: string): Promise<LocalBlobs> {
  const directory = path.join(stateDir, "blobs-serve");
  await mkdir(directory, { recursive: true });
  const token = randomBytes(32).toString("base64url");
  const blobs = new BlobsServer({ directory, token }) as unknown as BlobsServerInternals;
  if (typeof blobs.handleRequest !== "function") {
    throw new Error("@netlify/blobs' BlobsServer has no handleRequest any more: update netlify/local/local-blobs.ts for its new version");
  }
  const server = createServer((req, res) => {
    blobs
      .handleRequest(toWebRequest(req))
      .then((response) => sendWebResponse(res, response, req.method))
      .catch((error: unknown) => {
        if (res.destroyed) return;
        console.error(`[blobs] ${req.method ?? "GET"} ${req.url ?? "/"} failed:`, error);
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const url = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  blobs.address = url;
  setEnvironmentContext({
    deployID: "0",
    edgeURL: url,
    uncachedEdgeURL: url,
    primaryRegion: "us-east-2",
    siteID: await localSiteId(stateDir),
    token,
  });
  return {
    url,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The site ID NetlifyDev would use: the linked site's, or "0" (the folder the files are under). */
async function localSiteId(stateDir: string): Promise<string> {
  try {
    const state = JSON.parse(await readFile(path.join(stateDir, "state.json"), "utf8")) as { siteId?: unknown };
    return typeof state.siteId === "string" && state.siteId ? state.siteId : "0";
  } catch {
    return "0";
  }
}
