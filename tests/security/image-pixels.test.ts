import { crc32, deflateSync } from "node:zlib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { phonePhoto } from "../support/phone-photo.ts";
import { multipartBody } from "../support/multipart.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

/**
 * A valid, all-black 1-bit greyscale PNG of any size, written by hand: a 16,000 × 16,000 one is
 * about 31 KB and takes milliseconds, where encoding it with sharp took 25 s and 1.3 GB here.
 */
function blankPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.writeUInt8(1, 8); // bit depth
  header.writeUInt8(0, 9); // greyscale
  // Each row: filter byte 0, then width bits of black. Zeros deflate to almost nothing.
  const pixels = deflateSync(Buffer.alloc((1 + Math.ceil(width / 8)) * height), { level: 9 });
  return Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), chunk("IHDR", header), chunk("IDAT", pixels), chunk("IEND", Buffer.alloc(0))]);
}

async function upload(bytes: Uint8Array, name: string): Promise<Response> {
  const { body, contentType } = await multipartBody({ image: new File([new Uint8Array(bytes)], name) });
  return app.call("/api/blog-posts/upload-image", {
    method: "POST",
    headers: { ...(await app.adminHeaders()), "content-type": contentType },
    body,
  });
}

async function storedSize(response: Response): Promise<{ url: string; width: number; height: number }> {
  const { imageUrl } = (await response.json()) as { imageUrl: string };
  const stored = await sharp(new Uint8Array(await (await app.call(imageUrl)).arrayBuffer())).metadata();
  return { url: imageUrl, width: stored.autoOrient.width, height: stored.autoOrient.height };
}

describe("issue 26 finding 5: image pixels are capped before decoding, and every stored image is at most 2,560 px", () => {
  it("refuses a 16,000 × 16,000 PNG of 31 KB with 413 and a message in pixels", async () => {
    const png = blankPng(16_000, 16_000);
    expect(png.length).toBeLessThan(64 * 1024);
    expect(await sharp(png, { limitInputPixels: false }).metadata()).toMatchObject({ width: 16_000, height: 16_000 });
    const response = await upload(png, "huge.png");
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "This image is 16,000 × 16,000 pixels (256 MP); the limit is 50 megapixels." });
  });

  it("says pixels, not 'type', for a 30,000 × 30,000 PNG (over sharp's own limit)", async () => {
    const response = await upload(blankPng(30_000, 30_000), "huger.png");
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ error: "This image is 30,000 × 30,000 pixels (900 MP); the limit is 50 megapixels." });
  });

  it("stores a clean 3,000 × 2,000 PNG the browser did not shrink at 2,560 × 1,707", async () => {
    const png = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: "#e8a33d" } })
      .png()
      .toBuffer();
    const response = await upload(png, "wide.png");
    expect(response.status).toBe(200);
    const stored = await storedSize(response);
    expect(stored).toMatchObject({ width: 2560, height: 1707 });
    expect(stored.url).toMatch(/_2560x1707\.png$/);
  });

  it("turns a sideways 3,000 × 2,000 phone photo upright, then shrinks it to 1,707 × 2,560 without its EXIF", async () => {
    const photo = await phonePhoto({ width: 3000, height: 2000 });
    const response = await upload(photo, "IMG_0043.jpg");
    expect(response.status).toBe(200);
    const stored = await storedSize(response);
    expect(stored).toMatchObject({ width: 1707, height: 2560 });
    expect(stored.url).toMatch(/_1707x2560\.jpg$/);
    const metadata = await sharp(new Uint8Array(await (await app.call(stored.url)).arrayBuffer())).metadata();
    expect(metadata.exif).toBeUndefined();
  });
});
