import { describe, expect, it } from "vitest";
import { imageSizeOf, responsiveSources, sizedImageName, socialCardUrl } from "./image-sizes.ts";

const query = (url: string) => Object.fromEntries(new URL(url, "http://site").searchParams);

describe("image sizes", () => {
  it("names a stored image after its size and reads the size back from its URL", () => {
    const name = sizedImageName("0b8f3c3e-1111-4222-8333-444455556666", { width: 1920, height: 2560 }, "jpg");
    expect(name).toBe("0b8f3c3e-1111-4222-8333-444455556666_1920x2560.jpg");
    expect(imageSizeOf(`/api/files/images/${name}`)).toEqual({ width: 1920, height: 2560 });
    expect(imageSizeOf("/api/files/images/0b8f3c3e.png")).toBeUndefined();
    expect(imageSizeOf("/api/files/images/a_0x10.png")).toBeUndefined();
  });

  it("crops a cover to its shape at every width, no wider than the original", () => {
    const cover = responsiveSources("/api/files/images/a_1000x1500.jpg", 890, { width: 1200, height: 630 });
    const entries = cover.srcset.split(", ").map((entry) => entry.split(" "));
    expect(entries.map(([, width]) => width)).toEqual(["320w", "480w", "640w", "800w"]);
    expect(query(entries[3]?.[0] ?? "")).toEqual({ url: "/api/files/images/a_1000x1500.jpg", w: "800", h: "420", fit: "cover", fm: "webp" });
    expect(query(cover.src)).toEqual({ url: "/api/files/images/a_1000x1500.jpg", w: "890", h: "467", fit: "cover", fm: "jpg" });
    expect([cover.width, cover.height]).toEqual([890, 467]);
  });

  it("makes the social card a 1200×630 JPEG", () => {
    expect(query(socialCardUrl("/api/files/images/a.png"))).toEqual({ url: "/api/files/images/a.png", w: "1200", h: "630", fit: "cover", fm: "jpg" });
  });
});
