import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startImageServer } from "../../tests/support/image-server.ts";
import { imageFetcher, isPrivateAddress } from "./image-fetcher.ts";

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
});
