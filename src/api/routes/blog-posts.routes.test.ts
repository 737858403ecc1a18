import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import sharp from "sharp";
import { phonePhoto } from "../../../tests/support/phone-photo.ts";
import { multipartBody, type FormFields } from "../../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../../tests/support/test-app.ts";
import type { Post } from "../../core/posts/post.schema.ts";
import { createApiHandler, type ApiHandler } from "../api-handler.ts";
import { apiRoutes } from "../routes.ts";

let app: TestApp;
let handler: ApiHandler;
let admin: Record<string, string>;
let png: Uint8Array<ArrayBuffer>;

const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" });
const pngFile = (name = "cover.png") => new File([png], name, { type: "image/png" });
const postForm = (fields: FormFields = {}): FormFields => ({ title: "Runway math", content: "<p>Count the months.</p>", ...fields });
const send = async (method: string, path: string, form?: FormFields, headers: Record<string, string> = admin) => {
  if (!form) return call(path, { method, headers });
  const { body, contentType } = await multipartBody(form);
  return call(path, { method, headers: { ...headers, "content-type": contentType }, body });
};
const createPost = async (fields: Record<string, string | File> = {}) => {
  const response = await send("POST", "/api/blog-posts", postForm(fields));
  expect(response.status).toBe(201);
  return (await response.json()) as Post;
};
const errorOf = async (response: Response) => ((await response.json()) as { error: string }).error;
const fileKey = (url: string | null) => (url ?? "").replace(/^\/api\/files\//, "");

beforeAll(async () => {
  png = new Uint8Array(await readFile(new URL("../../../netlify/local/demo-content/files/thumb-cold-email-templates.png", import.meta.url)));
  app = await createTestApp();
  handler = createApiHandler({ routes: apiRoutes, deps: () => Promise.resolve(app.deps), checkAnswers: true });
  admin = await app.adminHeaders();
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await app.deps.db.query("DELETE FROM posts");
});

describe("POST /api/blog-posts", () => {
  it("creates a post from the multipart form and answers 201 with it", async () => {
    const before = app.rebuilds.count;
    const response = await send(
      "POST",
      "/api/blog-posts",
      postForm({
        title: "  Runway math  ",
        excerpt: "Months left.",
        category: "Cash Flow",
        readTime: "8",
        published: "true",
        featuredImage: pngFile(),
        featuredImageAlt: "A runway chart",
      }),
    );
    expect(response.status).toBe(201);
    const post = (await response.json()) as Post;
    expect(post).toMatchObject({
      title: "Runway math",
      content: "<p>Count the months.</p>",
      excerpt: "Months left.",
      category: "Cash Flow",
      readTime: 8,
      published: true,
    });
    expect(post.id).toBeGreaterThan(0);
    expect(post.publishedAt).toBe(post.createdAt);
    expect(post.featuredImage).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}_600x400\.png$/);
    expect(post.featuredImageAlt).toBe("A runway chart");
    expect(app.rebuilds.count).toBe(before + 1);
  });

  it("refuses a featured image without alt text or the decorative mark (400), storing nothing", async () => {
    const response = await send("POST", "/api/blog-posts", postForm({ featuredImage: pngFile() }));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Describe the featured image (alt text), or mark it decorative" });
    const { rows } = await app.deps.db.query("SELECT id FROM posts");
    expect(rows).toHaveLength(0);
  });

  it("fills the defaults: draft, 5 minutes, no excerpt, category or image", async () => {
    const post = await createPost({ readTime: "soon" });
    expect(post).toMatchObject({ excerpt: null, category: null, readTime: 5, published: false, publishedAt: null, featuredImage: null });
  });

  it.each([
    [{ title: "" }, "Title is required"],
    [{ title: "   " }, "Title is required"],
    [{ title: "x".repeat(201) }, "Title must be 200 characters or less"],
    [{ content: "" }, "Content is required"],
    [{ content: "<script>alert(1)</script>" }, "Content is required"],
    [{ content: "<p></p>" }, "Content is required"],
    [{ excerpt: "x".repeat(501) }, "Excerpt must be 500 characters or less"],
    [{ category: "Crypto" }, "Category must be one of: Entrepreneurship, Cash Flow, Networking, Mindset, Funding"],
    [{ readTime: "0" }, "Read time must be between 1 and 60 minutes"],
    [{ readTime: "61" }, "Read time must be between 1 and 60 minutes"],
  ])("answers 400 for %j", async (fields, message) => {
    const response = await send("POST", "/api/blog-posts", postForm(fields));
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toBe(message);
  });

  it("answers 400 without a title field at all, and for a body that is not a form", async () => {
    const missing = await send("POST", "/api/blog-posts", postForm({ title: undefined }));
    expect(await errorOf(missing)).toBe("Title is required");
    const notForm = await call("/api/blog-posts", { method: "POST", headers: { ...admin, "content-type": "application/json" }, body: "{}" });
    expect(notForm.status).toBe(400);
  });

  it("sanitizes the content", async () => {
    const post = await createPost({
      content:
        '<p onmouseover="alert(1)">Hi <a href="javascript:alert(1)">bad</a> <a href="https://example.com" target="_blank">good</a></p>' +
        '<script>alert(1)</script><iframe src="https://evil.example"></iframe><img src="data:image/png;base64,AAAA"><img src="/api/files/images/a.png" alt="ok">',
    });
    expect(post.content).toBe(
      '<p>Hi <a>bad</a> <a href="https://example.com" target="_blank" rel="noopener noreferrer">good</a></p><img src="/api/files/images/a.png" alt="ok" />',
    );
  });

  it("refuses spoofed images: HTML named .png and SVG (415), and nothing is stored", async () => {
    const before = app.rebuilds.count;
    const html = new File(["<html><script>alert(1)</script></html>"], "cover.png", { type: "image/png" });
    const svg = new File(['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'], "cover.svg", { type: "image/svg+xml" });
    for (const featuredImage of [html, svg]) {
      const response = await send("POST", "/api/blog-posts", postForm({ featuredImage, featuredImageAlt: "A cover" }));
      expect(response.status).toBe(415);
      expect(await errorOf(response)).toBe("Only PNG, JPEG, WebP, GIF or AVIF images are allowed");
    }
    expect((await app.deps.db.query("SELECT id FROM posts")).rows).toHaveLength(0);
    expect(app.rebuilds.count).toBe(before);
  });

  it("answers 413 for an image over 4 MB", async () => {
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(png);
    const response = await send(
      "POST",
      "/api/blog-posts",
      postForm({ featuredImage: new File([big], "big.png", { type: "image/png" }), featuredImageAlt: "A cover" }),
    );
    expect(response.status).toBe(413);
    expect(await errorOf(response)).toMatch(/too large/);
  });
});

describe("GET /api/blog-posts", () => {
  it("lists only published posts with ?published=true, to anyone", async () => {
    const published = await createPost({ title: "Out", published: "true" });
    await createPost({ title: "Draft" });
    const response = await call("/api/blog-posts?published=true");
    expect(response.status).toBe(200);
    expect(((await response.json()) as Post[]).map((post) => post.id)).toEqual([published.id]);
  });

  it("lists drafts too for the admin, newest first", async () => {
    const first = await createPost({ title: "Out", published: "true" });
    const second = await createPost({ title: "Draft" });
    const response = await call("/api/blog-posts", { headers: admin });
    expect(response.status).toBe(200);
    expect(((await response.json()) as Post[]).map((post) => post.id)).toEqual([second.id, first.id]);
  });

  it("answers 401 without a session unless published=true", async () => {
    for (const path of ["/api/blog-posts", "/api/blog-posts?published=false", "/api/blog-posts?published=1"]) {
      const response = await call(path);
      expect(response.status).toBe(401);
      expect(await errorOf(response)).toBe("Your session has expired. Please log in again.");
    }
  });
});

describe("GET /api/blog-posts/:id", () => {
  it("answers a published post to anyone", async () => {
    const post = await createPost({ published: "on" });
    const response = await call(`/api/blog-posts/${post.id}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual(post);
  });

  it("answers a draft only with a session (404 without)", async () => {
    const draft = await createPost();
    expect((await call(`/api/blog-posts/${draft.id}`)).status).toBe(404);
    const withSession = await call(`/api/blog-posts/${draft.id}`, { headers: admin });
    expect(withSession.status).toBe(200);
  });

  it("answers 404 for an unknown or malformed id", async () => {
    for (const id of ["999999", "0", "-1", "abc", "1.5", "01", "1e3", "99999999999999999999", "%20"]) {
      const response = await call(`/api/blog-posts/${id}`, { headers: admin });
      expect(response.status, id).toBe(404);
      expect(await errorOf(response)).toMatch(/not found/i);
    }
  });
});

describe("PUT /api/blog-posts/:id", () => {
  it("updates the post and answers 200 with it; publishedAt is kept while published and cleared when not", async () => {
    const post = await createPost({ published: "true", featuredImage: pngFile(), featuredImageAlt: "A cover" });
    const before = app.rebuilds.count;
    const response = await send("PUT", `/api/blog-posts/${post.id}`, postForm({ title: "Edited", readTime: "12", published: "true" }));
    expect(response.status).toBe(200);
    const edited = (await response.json()) as Post;
    expect(edited).toMatchObject({ id: post.id, title: "Edited", readTime: 12, publishedAt: post.publishedAt, featuredImage: post.featuredImage });
    expect(app.rebuilds.count).toBe(before + 1);

    const unpublished = (await (await send("PUT", `/api/blog-posts/${post.id}`, postForm())).json()) as Post;
    expect(unpublished).toMatchObject({ published: false, publishedAt: null });
  });

  it("replaces the featured image and deletes the old file", async () => {
    const post = await createPost({ featuredImage: pngFile(), featuredImageDecorative: "on" });
    const response = await send(
      "PUT",
      `/api/blog-posts/${post.id}`,
      postForm({ featuredImage: pngFile("new.png"), featuredImageAlt: "The new cover" }),
    );
    const edited = (await response.json()) as Post;
    expect(post.featuredImageAlt).toBe("");
    expect(edited.featuredImageAlt).toBe("The new cover");
    expect(edited.featuredImage).not.toBe(post.featuredImage);
    expect(await app.deps.files.get(fileKey(post.featuredImage))).toBeNull();
    expect(await app.deps.files.get(fileKey(edited.featuredImage))).not.toBeNull();
  });

  it("keeps an optional email subject: set on one line, kept by an edit that leaves it out, cleared by an empty one, at most 200 characters", async () => {
    expect((await createPost()).emailSubject).toBeNull();
    const post = await createPost({ emailSubject: "  Three months\r\nof runway  " });
    expect(post.emailSubject).toBe("Three months of runway");
    const path = `/api/blog-posts/${post.id}`;
    // SPEC's form, which knows no such field, changes nothing of it.
    const kept = (await (await send("PUT", path, postForm({ title: "Edited" }))).json()) as Post;
    expect(kept).toMatchObject({ title: "Edited", emailSubject: "Three months of runway" });
    const cleared = (await (await send("PUT", path, postForm({ emailSubject: "" }))).json()) as Post;
    expect(cleared.emailSubject).toBeNull();
    const tooLong = await send("PUT", path, postForm({ emailSubject: "x".repeat(201) }));
    expect(tooLong.status).toBe(400);
    expect(await errorOf(tooLong)).toBe("Email subject must be 200 characters or less");
    const read = (await (await send("GET", path)).json()) as Post;
    expect(read.emailSubject).toBeNull();
  });

  it("validates like create, and answers 404 for an unknown id", async () => {
    const post = await createPost();
    const invalid = await send("PUT", `/api/blog-posts/${post.id}`, postForm({ title: "" }));
    expect(invalid.status).toBe(400);
    expect(await errorOf(invalid)).toBe("Title is required");
    expect((await send("PUT", "/api/blog-posts/999999", postForm())).status).toBe(404);
    expect((await send("PUT", "/api/blog-posts/abc", postForm())).status).toBe(404);
  });
});

describe("DELETE /api/blog-posts/:id", () => {
  it("deletes the post and its image, answers 204 with no body, and asks for a rebuild", async () => {
    const post = await createPost({ published: "true", featuredImage: pngFile(), featuredImageAlt: "A cover" });
    const before = app.rebuilds.count;
    const response = await send("DELETE", `/api/blog-posts/${post.id}`);
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(app.rebuilds.count).toBe(before + 1);
    expect(await app.deps.files.get(fileKey(post.featuredImage))).toBeNull();
    expect((await call(`/api/blog-posts/${post.id}`, { headers: admin })).status).toBe(404);
    expect((await send("DELETE", `/api/blog-posts/${post.id}`)).status).toBe(404);
  });
});

describe("POST /api/blog-posts/upload-image", () => {
  const upload = (file?: File, headers = admin) => send("POST", "/api/blog-posts/upload-image", { image: file }, headers);

  it("stores the image and answers its URL, which serves the bytes", async () => {
    const before = app.rebuilds.count;
    const response = await upload(pngFile());
    expect(response.status).toBe(200);
    const { imageUrl } = (await response.json()) as { imageUrl: string };
    expect(imageUrl).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}_600x400\.png$/);
    const served = await call(imageUrl);
    expect(served.status).toBe(200);
    expect(new Uint8Array(await served.arrayBuffer())).toEqual(png);
    expect(app.rebuilds.count).toBe(before);
  });

  it("keeps no EXIF or GPS from a phone photo, turns it upright and names its size", async () => {
    const photo = await phonePhoto({ width: 1200, height: 900 });
    expect((await sharp(photo).metadata()).exif?.toString("latin1")).toContain("No Filter Phone");
    const response = await upload(new File([new Uint8Array(photo)], "IMG_0042.jpg", { type: "image/jpeg" }));
    expect(response.status).toBe(200);
    const { imageUrl } = (await response.json()) as { imageUrl: string };
    // Taken sideways with orientation 6: stored 900 wide and 1200 high, as it is seen.
    expect(imageUrl).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}_900x1200\.jpg$/);
    const stored = await sharp(new Uint8Array(await (await call(imageUrl)).arrayBuffer())).metadata();
    expect({ width: stored.width, height: stored.height, format: stored.format }).toEqual({ width: 900, height: 1200, format: "jpeg" });
    expect(stored.exif).toBeUndefined();
    expect(stored.xmp).toBeUndefined();
    expect(stored.orientation).toBeUndefined();
  });

  it("answers 415 for bytes that only start like an image", async () => {
    // The signature and the header chunk (33 bytes), then zeros where the pixels should be.
    const broken = new Uint8Array([...png.slice(0, 33), ...new Uint8Array(64)]);
    const response = await upload(new File([broken], "broken.png", { type: "image/png" }));
    expect(response.status).toBe(415);
    expect(await errorOf(response)).toBe("Only PNG, JPEG, WebP, GIF or AVIF images are allowed");
  });

  it("answers 400 without an image, 415 for a non-image, 413 over 4 MB", async () => {
    const missing = await upload();
    expect(missing.status).toBe(400);
    expect(await errorOf(missing)).toBe("Please select an image to upload.");
    expect((await upload(new File(["<svg xmlns='http://www.w3.org/2000/svg'/>"], "a.png"))).status).toBe(415);
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(png);
    expect((await upload(new File([big], "big.png"))).status).toBe(413);
  });
});

describe("access", () => {
  it("answers 401 to every admin call without a session", async () => {
    const post = await createPost({ published: "true" });
    const sameOrigin = { origin: testOrigin };
    const calls: [string, string, FormFields | undefined][] = [
      ["POST", "/api/blog-posts", postForm()],
      ["PUT", `/api/blog-posts/${post.id}`, postForm()],
      ["DELETE", `/api/blog-posts/${post.id}`, undefined],
      ["POST", "/api/blog-posts/upload-image", postForm({ image: pngFile() })],
    ];
    for (const [method, path, body] of calls) {
      const response = await send(method, path, body, sameOrigin);
      expect(response.status, `${method} ${path}`).toBe(401);
    }
    expect((await call(`/api/blog-posts/${post.id}`)).status).toBe(200);
  });

  it("answers 403 to a cross-site write, even with a session", async () => {
    const crossSite = { ...admin, origin: "https://evil.example" };
    const response = await send("POST", "/api/blog-posts", postForm(), crossSite);
    expect(response.status).toBe(403);
    expect((await send("DELETE", "/api/blog-posts/1", undefined, crossSite)).status).toBe(403);
    expect((await app.deps.db.query("SELECT id FROM posts")).rows).toHaveLength(0);
  });
});
