import { readFile } from "node:fs/promises";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import type { FileStore } from "../files/file-store.ts";
import { postFormSchema, type PostForm, type PostFormInput } from "./post.schema.ts";
import { createPost, deletePost, getPost, listPosts, updatePost, uploadPostImage, type PostsDeps } from "./posts.service.ts";

let app: TestApp;
let clock: Date;
let png: Uint8Array<ArrayBuffer>;
/** Every key the service stored, in order. */
let storedKeys: string[];
let deps: PostsDeps;

const form = (fields: Partial<PostFormInput> = {}): PostForm =>
  postFormSchema.parse({ title: "Runway math", content: "<p>Count the months.</p>", ...fields });
const pngFile = () => new File([png], "cover.png", { type: "image/png" });
const keyOf = (url: string | null) => (url ?? "").replace(/^\/api\/files\//, "");

beforeAll(async () => {
  png = new Uint8Array(await readFile(new URL("../../../netlify/local/demo-content/files/thumb-cold-email-templates.png", import.meta.url)));
  app = await createTestApp({ now: () => clock });
  const files: FileStore = {
    ...app.deps.files,
    put: async (key, data, meta) => {
      storedKeys.push(key);
      await app.deps.files.put(key, data, meta);
    },
  };
  deps = { ...app.deps, files };
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  clock = new Date("2024-03-01T10:00:00.000Z");
  storedKeys = [];
  await app.deps.db.query("DELETE FROM posts");
});

describe("publishedAt", () => {
  it("is set on first publish, kept on later updates, cleared when unpublished", async () => {
    const draft = await createPost(deps, form());
    expect(draft).toMatchObject({ published: false, publishedAt: null, createdAt: "2024-03-01T10:00:00.000Z" });

    clock = new Date("2024-03-02T10:00:00.000Z");
    const published = await updatePost(deps, draft.id, form({ published: "true" }));
    expect(published).toMatchObject({ published: true, publishedAt: "2024-03-02T10:00:00.000Z", updatedAt: "2024-03-02T10:00:00.000Z" });

    clock = new Date("2024-03-03T10:00:00.000Z");
    const edited = await updatePost(deps, draft.id, form({ title: "Edited", published: "on" }));
    expect(edited).toMatchObject({ title: "Edited", publishedAt: "2024-03-02T10:00:00.000Z", updatedAt: "2024-03-03T10:00:00.000Z" });

    const unpublished = await updatePost(deps, draft.id, form());
    expect(unpublished).toMatchObject({ published: false, publishedAt: null });

    clock = new Date("2024-03-04T10:00:00.000Z");
    const republished = await updatePost(deps, draft.id, form({ published: "1" }));
    expect(republished.publishedAt).toBe("2024-03-04T10:00:00.000Z");
  });

  it("is set when a post is created published", async () => {
    const post = await createPost(deps, form({ published: "true" }));
    expect(post.publishedAt).toBe("2024-03-01T10:00:00.000Z");
  });
});

describe("listing and reading", () => {
  it("lists published posts by publish date, and all posts by creation date", async () => {
    const first = await createPost(deps, form({ title: "First", published: "true" }));
    clock = new Date("2024-03-02T10:00:00.000Z");
    const second = await createPost(deps, form({ title: "Second" }));
    clock = new Date("2024-03-03T10:00:00.000Z");
    const third = await createPost(deps, form({ title: "Third", published: "true" }));
    clock = new Date("2024-03-04T10:00:00.000Z");
    await updatePost(deps, first.id, form({ title: "First", published: "true" })); // keeps its publish date

    expect((await listPosts(deps, { publishedOnly: true })).map((post) => post.title)).toEqual(["Third", "First"]);
    expect((await listPosts(deps, { publishedOnly: false })).map((post) => post.id)).toEqual([third.id, second.id, first.id]);
  });

  it("finds a draft only with includeDrafts", async () => {
    const draft = await createPost(deps, form());
    await expect(getPost(deps, draft.id, { includeDrafts: false })).rejects.toMatchObject({ status: 404 });
    expect((await getPost(deps, draft.id, { includeDrafts: true })).id).toBe(draft.id);
    await expect(getPost(deps, 999_999, { includeDrafts: true })).rejects.toMatchObject({ status: 404 });
    await expect(getPost(deps, 2 ** 40, { includeDrafts: true })).rejects.toMatchObject({ status: 404 });
  });
});

describe("content", () => {
  it("is sanitized on save, and refused when nothing is left", async () => {
    const post = await createPost(deps, form({ content: '<p onclick="x()">Hi</p><script>alert(1)</script>' }));
    expect(post.content).toBe("<p>Hi</p>");
    await expect(createPost(deps, form({ content: "<script>alert(1)</script>" }))).rejects.toMatchObject({
      status: 400,
      message: "Content is required",
    });
    await expect(updatePost(deps, post.id, form({ content: "<p></p>" }))).rejects.toMatchObject({ message: "Content is required" });
  });
});

describe("featured image", () => {
  it("is stored under images/<uuid>.png and served as a URL", async () => {
    const post = await createPost(deps, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }));
    expect(post.featuredImage).toMatch(/^\/api\/files\/images\/[0-9a-f-]{36}_600x400\.png$/);
    const stored = await app.deps.files.get(keyOf(post.featuredImage));
    expect(stored?.contentType).toBe("image/png");
    expect(stored?.data).toEqual(png);
  });

  it("is deleted again when the database write fails (no orphan)", async () => {
    const broken = { ...form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }), category: "Crypto" } as unknown as PostForm;
    await expect(createPost(deps, broken)).rejects.toThrow();
    expect(storedKeys).toHaveLength(1);
    expect(await app.deps.files.get(storedKeys[0] as string)).toBeNull();

    await expect(updatePost(deps, 999_999, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }))).rejects.toMatchObject({ status: 404 });
    expect(storedKeys).toHaveLength(2);
    expect(await app.deps.files.get(storedKeys[1] as string)).toBeNull();
  });

  it("is kept on an update without a new one, and replaced (old file deleted) with one", async () => {
    const post = await createPost(deps, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }));
    const kept = await updatePost(deps, post.id, form({ title: "No new image" }));
    expect(kept.featuredImage).toBe(post.featuredImage);

    const replaced = await updatePost(deps, post.id, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }));
    expect(replaced.featuredImage).not.toBe(post.featuredImage);
    expect(await app.deps.files.get(keyOf(post.featuredImage))).toBeNull();
    expect(await app.deps.files.get(keyOf(replaced.featuredImage))).not.toBeNull();
  });

  it('keeps its alt text: the words, "" when decorative, kept without new ones, null when never described', async () => {
    const post = await createPost(deps, form({ featuredImage: pngFile(), featuredImageAlt: "A runway chart" }));
    expect(post.featuredImageAlt).toBe("A runway chart");
    const kept = await updatePost(deps, post.id, form({ title: "Same picture" }));
    expect(kept.featuredImageAlt).toBe("A runway chart");
    const decorative = await updatePost(deps, post.id, form({ featuredImageDecorative: "on" }));
    expect(decorative.featuredImageAlt).toBe("");
    const described = await updatePost(deps, post.id, form({ featuredImageAlt: "Six weeks of runway" }));
    expect(described.featuredImageAlt).toBe("Six weeks of runway");
    // A row from before the field (migration 0025 leaves it NULL): not described yet, not refused.
    await app.deps.db.query("UPDATE posts SET featured_image_alt = NULL WHERE id = $1", [post.id]);
    expect((await updatePost(deps, post.id, form({ title: "Old row" }))).featuredImageAlt).toBeNull();
    // No image, no alt.
    expect((await createPost(deps, form({ featuredImageAlt: "Ignored" }))).featuredImageAlt).toBeNull();
  });

  it("keeps its focal point: given with the image, kept without a new one, back to the middle with a new image or when cleared", async () => {
    const post = await createPost(deps, form({ featuredImage: pngFile(), featuredImageAlt: "A cover", featuredImageFocus: "30,72" }));
    expect(post.featuredImageFocus).toEqual({ x: 30, y: 72 });
    expect((await updatePost(deps, post.id, form({ title: "Same picture" }))).featuredImageFocus).toEqual({ x: 30, y: 72 });
    expect((await updatePost(deps, post.id, form({ featuredImageFocus: "12.6,0" }))).featuredImageFocus).toEqual({ x: 13, y: 0 });
    // A new picture's subject is elsewhere: the middle, unless a point comes with it.
    expect((await updatePost(deps, post.id, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }))).featuredImageFocus).toBeNull();
    expect((await updatePost(deps, post.id, form({ featuredImageFocus: "100,100" }))).featuredImageFocus).toEqual({ x: 100, y: 100 });
    expect((await updatePost(deps, post.id, form({ featuredImageFocus: "" }))).featuredImageFocus).toBeNull();
    // No image, no point.
    expect((await createPost(deps, form({ featuredImageFocus: "10,10" }))).featuredImageFocus).toBeNull();
  });

  it("refuses a focal point that is not two percentages", () => {
    for (const bad of ["50", "101,5", "-1,5", "a,b", "50;50"]) {
      const result = postFormSchema.safeParse({ title: "T", content: "<p>x</p>", featuredImageFocus: bad });
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^Focal point must be two percentages/);
    }
  });

  it("goes with its post", async () => {
    const post = await createPost(deps, form({ featuredImage: pngFile(), featuredImageAlt: "A cover" }));
    await deletePost(deps, post.id);
    expect(await app.deps.files.get(keyOf(post.featuredImage))).toBeNull();
    await expect(deletePost(deps, post.id)).rejects.toMatchObject({ status: 404 });
  });
});

describe("rebuilds", () => {
  it("are asked for after each create, update and delete of a published post, and not after a failure or an image upload", async () => {
    const before = app.rebuilds.count;
    const post = await createPost(deps, form({ published: true }));
    await updatePost(deps, post.id, form({ title: "Again", published: true }));
    await deletePost(deps, post.id);
    expect(app.rebuilds.count).toBe(before + 3);
    await expect(deletePost(deps, post.id)).rejects.toMatchObject({ status: 404 });
    await uploadPostImage(deps, pngFile());
    expect(app.rebuilds.count).toBe(before + 3);
  });

  it("are not asked for while a post stays a draft (on no page), and are when it is published and unpublished", async () => {
    const before = app.rebuilds.count;
    const draft = await createPost(deps, form({ tags: "a brand new tag" }));
    await updatePost(deps, draft.id, form({ title: "Still a draft" }));
    expect(app.rebuilds.count).toBe(before);
    await updatePost(deps, draft.id, form({ title: "Out now", published: true }));
    expect(app.rebuilds.count).toBe(before + 1);
    await updatePost(deps, draft.id, form({ title: "Back to draft" }));
    expect(app.rebuilds.count).toBe(before + 2);
    await deletePost(deps, draft.id);
    expect(app.rebuilds.count).toBe(before + 2);
  });
});
