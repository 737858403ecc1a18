import { describe, expect, it } from "vitest";
import { createImageCache } from "./image-cache.ts";

const image = (bytes: number, status = 200) => new Response(new Uint8Array(bytes), { status, headers: { "content-type": "image/webp" } });

describe("the local Image CDN cache", () => {
  it("transforms a variant once and answers the same bytes and headers after", async () => {
    const cache = createImageCache();
    let transforms = 0;
    const transform = () => {
      transforms++;
      return Promise.resolve(image(10));
    };
    const first = await cache.answer("/.netlify/images?url=a&w=320", transform);
    const second = await cache.answer("/.netlify/images?url=a&w=320", transform);
    expect(transforms).toBe(1);
    expect((await second?.arrayBuffer())?.byteLength).toBe(10);
    expect(second?.headers.get("content-type")).toBe("image/webp");
    expect((await first?.arrayBuffer())?.byteLength).toBe(10);
  });

  it("keeps no failure, and drops the least recently used variant past its size", async () => {
    const cache = createImageCache(25);
    let transforms = 0;
    const transform =
      (bytes: number, status = 200) =>
      () => {
        transforms++;
        return Promise.resolve(image(bytes, status));
      };
    expect((await cache.answer("missing", transform(0, 404)))?.status).toBe(404);
    await cache.answer("missing", transform(0, 404));
    expect(transforms).toBe(2);

    await cache.answer("a", transform(10));
    await cache.answer("b", transform(10));
    await cache.answer("a", transform(10)); // used again: b is now the oldest
    await cache.answer("c", transform(10)); // 30 bytes > 25: b goes
    transforms = 0;
    await cache.answer("a", transform(10));
    await cache.answer("c", transform(10));
    expect(transforms).toBe(0);
    await cache.answer("b", transform(10));
    expect(transforms).toBe(1);
  });
});
