import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { ConflictError } from "../errors.ts";
import { postFormSchema, type PostFormInput } from "./post.schema.ts";
import { publishedPostRedirects } from "./post-slug-store.ts";
import { createPost, deletePost, getPost, updatePost } from "./posts.service.ts";

let app: TestApp;
const form = (fields: Partial<PostFormInput> = {}) => postFormSchema.parse({ title: "Runway math", content: "<p>Count the months.</p>", ...fields });

beforeAll(async () => {
  app = await createTestApp({ now: () => new Date("2024-03-01T10:00:00.000Z") });
});
afterAll(async () => {
  await app.close();
});
beforeEach(async () => {
  await app.deps.db.query("DELETE FROM posts");
});

describe("a post's slug", () => {
  it("comes from the title, numbered when the title is taken, and gives the post its url", async () => {
    const first = await createPost(app.deps, form());
    const second = await createPost(app.deps, form());
    const third = await createPost(app.deps, form({ title: "Runway Math!" }));
    expect([first.slug, second.slug, third.slug]).toEqual(["runway-math", "runway-math-2", "runway-math-3"]);
    expect(first.url).toBe("/blog/runway-math");
    expect((await getPost(app.deps, first.id, { includeDrafts: true })).slug).toBe("runway-math");
  });

  it("is the owner's when typed, and refused with 409 when another post has it", async () => {
    const mine = await createPost(app.deps, form({ slug: "cash-is-a-fact" }));
    expect(mine.slug).toBe("cash-is-a-fact");
    await expect(createPost(app.deps, form({ slug: "cash-is-a-fact" }))).rejects.toThrow(ConflictError);
    const other = await createPost(app.deps, form({ title: "Other" }));
    await expect(updatePost(app.deps, other.id, form({ title: "Other", slug: "cash-is-a-fact" }))).rejects.toThrow(
      "This slug is already used by another post",
    );
  });

  it("stays when an edit leaves the field empty or the title changes", async () => {
    const post = await createPost(app.deps, form());
    const edited = await updatePost(app.deps, post.id, form({ title: "A new title" }));
    expect(edited.slug).toBe("runway-math");
  });

  it("leaves the old slug redirecting when renamed, and a slug taken again stops redirecting", async () => {
    const post = await createPost(app.deps, form({ published: "true" }));
    await updatePost(app.deps, post.id, form({ slug: "runway-math-explained", published: "true" }));
    await updatePost(app.deps, post.id, form({ slug: "runway-math-for-founders", published: "true" }));
    expect(await publishedPostRedirects(app.deps.db)).toEqual([
      { from: String(post.id), to: "runway-math-for-founders" },
      { from: "runway-math", to: "runway-math-for-founders" },
      { from: "runway-math-explained", to: "runway-math-for-founders" },
    ]);

    // A new post claims an old slug: its page wins over the redirect.
    const claimer = await createPost(app.deps, form({ slug: "runway-math", published: "true" }));
    // Renaming back to an earlier slug takes it out of the redirects too.
    await updatePost(app.deps, post.id, form({ slug: "runway-math-explained", published: "true" }));
    expect(await publishedPostRedirects(app.deps.db)).toEqual(
      [
        { from: String(claimer.id), to: "runway-math" },
        { from: String(post.id), to: "runway-math-explained" },
        { from: "runway-math-for-founders", to: "runway-math-explained" },
      ].sort((a, b) => (a.from < b.from ? -1 : 1)),
    );
  });

  it("redirects only for live posts, and not at all once the post is deleted", async () => {
    const draft = await createPost(app.deps, form());
    await updatePost(app.deps, draft.id, form({ slug: "renamed-draft" }));
    expect(await publishedPostRedirects(app.deps.db)).toEqual([]);
    const live = await createPost(app.deps, form({ title: "Live", published: "on" }));
    await updatePost(app.deps, live.id, form({ title: "Live", slug: "still-live", published: "on" }));
    await deletePost(app.deps, live.id);
    expect(await publishedPostRedirects(app.deps.db)).toEqual([]);
  });

  it("is given to rows written before slugs existed, by the migration's rules", async () => {
    const { rows } = await app.deps.db.query<{ slug: string }>("INSERT INTO posts (title, content) VALUES ('Raw row', 'x') RETURNING slug");
    expect(rows[0]?.slug).toMatch(/^post-[0-9a-f]{12}$/);
  });
});
