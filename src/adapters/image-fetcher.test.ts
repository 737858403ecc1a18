import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImageServer } from "../../tests/support/image-server.ts";
import { imageFetcher, isPrivateAddress, type ResolveHost } from "./image-fetcher.ts";

/** A DNS of the test's own: each call answers the next list of addresses (the last one again after), and is counted. */
function scriptedDns(...answers: string[][]): ResolveHost & { calls: string[] } {
  const calls: string[] = [];
  const resolve = (host: string) => {
    calls.push(host);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? [];
    return Promise.resolve(answer.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })));
  };
  return Object.assign(resolve, { calls });
}

describe("the import's image fetcher", () => {
  let images: Awaited<ReturnType<typeof startImageServer>>;
  beforeAll(async () => {
    images = await startImageServer();
  });
  afterAll(async () => {
    await images.stop();
  });

  it("knows loopback, private, link-local and mapped addresses", () => {
    for (const address of [
      "127.0.0.1",
      "10.1.2.3",
      "172.20.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "::1",
      "fd00::1",
      "fe80::1",
      "::ffff:127.0.0.1",
      "0.0.0.0",
      // IPv4 inside IPv6, each reaching 127.0.0.1 or 169.254.169.254 by another road: IPv4-compatible (::/96),
      // NAT64 (64:ff9b::/96, and the local-use 64:ff9b:1::/48) and 6to4 (2002::/16).
      "::127.0.0.1",
      "::a9fe:a9fe",
      "64:ff9b::7f00:1",
      "64:ff9b::a9fe:a9fe",
      "64:ff9b:1::a9fe:a9fe",
      "2002:7f00:1::1",
      "2002:a9fe:a9fe::",
    ]) {
      expect(isPrivateAddress(address), address).toBe(true);
    }
    for (const address of ["93.184.216.34", "2606:4700::1111"]) expect(isPrivateAddress(address), address).toBe(false);
  });

  it("refuses a loopback host unless private hosts are allowed, and other schemes always", async () => {
    const strict = imageFetcher({ allowPrivateHosts: false });
    await expect(strict(`${images.url}/a.png`)).rejects.toThrow("The host 127.0.0.1 is a private or loopback address");
    await expect(strict("ftp://example.com/a.png")).rejects.toThrow("Only http and https addresses are fetched (ftp:)");
    const relaxed = imageFetcher({ allowPrivateHosts: true });
    expect((await relaxed(`${images.url}/a.png`)).bytes.byteLength).toBeGreaterThan(0);
  });

  it("stops at the size limit and says why", async () => {
    const small = imageFetcher({ allowPrivateHosts: true, maxBytes: 10 });
    await expect(small(`${images.url}/a.png`)).rejects.toThrow(/Larger than/);
  });

  it("refuses a name that resolves to a loopback or private address, before any connection", async () => {
    const port = new URL(images.url).port;
    const seen = images.requests.length;
    for (const answer of [["127.0.0.1"], ["93.184.216.34", "10.0.0.7"], ["::1"]]) {
      const strict = imageFetcher({ allowPrivateHosts: false, resolve: scriptedDns(answer) });
      await expect(strict(`http://images.old-blog.test:${port}/a.png`)).rejects.toThrow(
        "The host images.old-blog.test is a private or loopback address",
      );
    }
    const nowhere = imageFetcher({ allowPrivateHosts: false, resolve: scriptedDns([]) });
    await expect(nowhere(`http://gone.old-blog.test:${port}/a.png`)).rejects.toThrow("The host gone.old-blog.test was not found");
    expect(images.requests.length).toBe(seen);
  });

  it("connects to the very address it checked: one lookup a connection, so a second DNS answer never counts (rebinding)", async () => {
    const port = new URL(images.url).port;
    // The first answer is the image server; any later one points elsewhere (an address nothing answers on).
    const dns = scriptedDns(["127.0.0.1"], ["10.255.255.1"]);
    const fetchImage = imageFetcher({ allowPrivateHosts: true, resolve: dns, timeoutMs: 5000 });
    const image = await fetchImage(`http://images.old-blog.test:${port}/b.png`);
    expect(image.contentType).toBe("image/png");
    expect(image.bytes.byteLength).toBeGreaterThan(0);
    expect(dns.calls).toEqual(["images.old-blog.test"]);
    expect(images.requests.at(-1)).toBe("/b.png");
  });
});
