import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { featureDatabaseTargets, type TestDatabase } from "../../../tests/support/test-databases.ts";
import { createTestApp, type TestApp } from "../../../tests/support/test-app.ts";
import { ConflictError, NotFoundError } from "../errors.ts";
import { postFormSchema, type PostFormInput } from "./post.schema.ts";
import { createPost, deletePost, getPost, listPosts, updatePost } from "./posts.service.ts";
import { tagFormSchema, type TagFormInput } from "./tag.schema.ts";
import { createTag, deleteTag, listTags, tagRedirects, updateTag } from "./tags.service.ts";

const post = (fields: Partial<PostFormInput> = {}) => postFormSchema.parse({ title: "Runway math", content: "<p>Count the months.</p>", ...fields });
const tag = (fields: TagFormInput) => tagFormSchema.parse(fields);

describe.each(featureDatabaseTargets)("tags on $name", (target) => {
  let testDb: TestDatabase;
  let app: TestApp;
  beforeAll(async () => {
    testDb = await target.createMigrated();
    app = await createTestApp({ db: testDb.db, now: () => new Date("2026-03-01T10:00:00.000Z") });
  });
  afterAll(async () => {
    await app.close();
    await testDb.drop();
  });
  beforeEach(async () => {
    await app.deps.db.query("DELETE FROM posts");
    await app.deps.db.query("DELETE FROM tags");
  });

  it("creates a tag with a slug from its name, or the owner's; a taken slug or name is a conflict", async () => {
    const funding = await createTag(app.deps, tag({ name: "Seed Rounds", description: "Raising the first money", topic: true }));
    expect(funding).toEqual({ slug: "seed-rounds", name: "Seed Rounds", description: "Raising the first money", topic: true, postCount: 0 });
    expect(await createTag(app.deps, tag({ name: "Hiring", slug: "people" }))).toMatchObject({ slug: "people", topic: false, description: null });
    await expect(createTag(app.deps, tag({ name: "Other", slug: "people" }))).rejects.toThrow(ConflictError);
    await expect(createTag(app.deps, tag({ name: "seed rounds" }))).rejects.toThrow("A tag with this name already exists");
    expect((await listTags(app.deps)).map((listed) => listed.slug)).toEqual(["people", "seed-rounds"]);
  });

  it("tags posts from the form: slugs or names, unknown names made on the fly, in the owner's order", async () => {
    await createTag(app.deps, tag({ name: "Seed Rounds" }));
    const created = await createPost(app.deps, post({ tags: "Pricing, seed-rounds, pricing, ,  Cold   email " }));
    expect(created.tags).toEqual(["pricing", "seed-rounds", "cold-email"]);
    expect((await getPost(app.deps, created.id, { includeDrafts: true })).tags).toEqual(["pricing", "seed-rounds", "cold-email"]);
    // Left out, an edit keeps them; given, it replaces them; empty, it clears them.
    expect((await updatePost(app.deps, created.id, post())).tags).toEqual(["pricing", "seed-rounds", "cold-email"]);
    expect((await updatePost(app.deps, created.id, post({ tags: "Cold email,Seed rounds" }))).tags).toEqual(["cold-email", "seed-rounds"]);
    expect((await updatePost(app.deps, created.id, post({ tags: "" }))).tags).toEqual([]);
  });

  it("counts only published posts", async () => {
    await createPost(app.deps, post({ tags: "Pricing", published: "true" }));
    await createPost(app.deps, post({ tags: "Pricing", published: "true" }));
    await createPost(app.deps, post({ tags: "Pricing, Drafts only" }));
    expect((await listTags(app.deps)).map(({ slug, postCount }) => ({ slug, postCount }))).toEqual([
      { slug: "drafts-only", postCount: 0 },
      { slug: "pricing", postCount: 2 },
    ]);
  });

  it("renaming a tag's slug keeps its old slug redirecting, and the old slug still finds it in the form", async () => {
    const created = await createPost(app.deps, post({ tags: "Pricing", published: "true" }));
    const renamed = await updateTag(app.deps, "pricing", tag({ name: "Pricing strategy", slug: "pricing-strategy" }));
    expect(renamed).toMatchObject({ slug: "pricing-strategy", name: "Pricing strategy", postCount: 1 });
    await updateTag(app.deps, "pricing-strategy", tag({ name: "Pricing strategy", slug: "prices" }));
    expect(await tagRedirects(app.deps.db)).toEqual([
      { from: "pricing", to: "prices" },
      { from: "pricing-strategy", to: "prices" },
    ]);
    expect((await getPost(app.deps, created.id, { includeDrafts: true })).tags).toEqual(["prices"]);
    // Typing the old slug in a post form finds the renamed tag, not a new one.
    expect((await createPost(app.deps, post({ tags: "pricing" }))).tags).toEqual(["prices"]);
    // A new tag that takes an old slug ends its redirect (a live list wins).
    await createTag(app.deps, tag({ name: "Pricing", slug: "pricing" }));
    expect(await tagRedirects(app.deps.db)).toEqual([{ from: "pricing-strategy", to: "prices" }]);
    await expect(updateTag(app.deps, "prices", tag({ name: "Prices", slug: "pricing" }))).rejects.toThrow(ConflictError);
  });

  it("keeps the description and topic when an edit leaves them out", async () => {
    await createTag(app.deps, tag({ name: "Funding", description: "Money in", topic: true }));
    expect(await updateTag(app.deps, "funding", tag({ name: "Funding news" }))).toMatchObject({
      slug: "funding",
      name: "Funding news",
      description: "Money in",
      topic: true,
    });
    expect(await updateTag(app.deps, "funding", tag({ name: "Funding news", description: "", topic: false }))).toMatchObject({
      description: null,
      topic: false,
    });
  });

  it("deleting a tag never deletes a post; deleting a post leaves the tag", async () => {
    const kept = await createPost(app.deps, post({ tags: "Pricing, Hiring", published: "true" }));
    await deleteTag(app.deps, "pricing");
    expect((await getPost(app.deps, kept.id, { includeDrafts: false })).tags).toEqual(["hiring"]);
    await expect(deleteTag(app.deps, "pricing")).rejects.toThrow(NotFoundError);
    await deletePost(app.deps, kept.id);
    expect(await listTags(app.deps)).toMatchObject([{ slug: "hiring", postCount: 0 }]);
    expect(await listPosts(app.deps, { publishedOnly: true })).toEqual([]);
  });
});
