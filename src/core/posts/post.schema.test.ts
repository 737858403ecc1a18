import { describe, expect, it } from "vitest";
import { postCategories, postFormSchema } from "./post.schema.ts";

const valid = { title: "Runway math", content: "<p>Count the months.</p>" };
const parse = (fields: Record<string, unknown>) => postFormSchema.safeParse({ ...valid, ...fields });
const message = (fields: Record<string, unknown>) => {
  const result = parse(fields);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe("postFormSchema", () => {
  it("reads a minimal form with the defaults", () => {
    expect(postFormSchema.parse(valid)).toEqual({
      title: "Runway math",
      content: "<p>Count the months.</p>",
      excerpt: null,
      category: null,
      readTime: 5,
      published: false,
      slug: null,
      publishAt: null,
      featuredImageDecorative: false,
    });
  });

  it("requires a title, trimmed, of at most 200 characters", () => {
    expect(message({ title: undefined })).toBe("Title is required");
    expect(message({ title: "   " })).toBe("Title is required");
    expect(message({ title: "x".repeat(201) })).toBe("Title must be 200 characters or less");
    expect(parse({ title: `  ${"x".repeat(200)}  ` }).data?.title).toHaveLength(200);
  });

  it("requires content", () => {
    expect(message({ content: undefined })).toBe("Content is required");
    expect(message({ content: " " })).toBe("Content is required");
  });

  it("keeps an excerpt of at most 500 characters; empty is null", () => {
    expect(parse({ excerpt: "Short." }).data?.excerpt).toBe("Short.");
    expect(parse({ excerpt: "" }).data?.excerpt).toBeNull();
    expect(message({ excerpt: "x".repeat(501) })).toBe("Excerpt must be 500 characters or less");
  });

  it("takes a known category or none", () => {
    for (const category of postCategories) expect(parse({ category }).data?.category).toBe(category);
    expect(parse({ category: "" }).data?.category).toBeNull();
    expect(message({ category: "Crypto" })).toMatch(/^Category must be one of/);
  });

  it("reads the read time as whole minutes, 5 when not a number, 1–60 or refused", () => {
    expect(parse({ readTime: "12" }).data?.readTime).toBe(12);
    expect(parse({ readTime: 7 }).data?.readTime).toBe(7);
    expect(parse({ readTime: "abc" }).data?.readTime).toBe(5);
    expect(parse({ readTime: "" }).data?.readTime).toBe(5);
    expect(parse({ readTime: "60" }).data?.readTime).toBe(60);
    expect(parse({ readTime: "1" }).data?.readTime).toBe(1);
    for (const readTime of ["0", "61", "-3", "1000"]) {
      expect(message({ readTime })).toBe("Read time must be between 1 and 60 minutes");
    }
  });

  it("reads published from a checkbox or a boolean", () => {
    for (const published of ["true", "on", "1", true]) expect(parse({ published }).data?.published).toBe(true);
    for (const published of ["false", "off", "0", "", "yes", false, undefined]) {
      expect(parse({ published }).data?.published).toBe(false);
    }
  });

  it("takes an optional featured image file", () => {
    const file = new File([new Uint8Array(4)], "a.png");
    expect(parse({ featuredImage: file, featuredImageAlt: "A chart" }).data?.featuredImage).toBe(file);
    expect(message({ featuredImage: "not a file" })).toBe("Featured image must be an image file");
  });

  it("requires the featured image's alt text with a new image, unless it is marked decorative", () => {
    const file = new File([new Uint8Array(4)], "IMG_2041.png");
    expect(message({ featuredImage: file })).toBe("Describe the featured image (alt text), or mark it decorative");
    expect(message({ featuredImage: file, featuredImageAlt: "   " })).toBe("Describe the featured image (alt text), or mark it decorative");
    expect(parse({ featuredImage: file, featuredImageAlt: " A chart of runway " }).data).toMatchObject({
      featuredImageAlt: "A chart of runway",
      featuredImageDecorative: false,
    });
    expect(parse({ featuredImage: file, featuredImageDecorative: "on" }).data).toMatchObject({ featuredImageDecorative: true });
    expect(message({ featuredImage: file, featuredImageAlt: "x".repeat(301) })).toBe("Alt text must be 300 characters or less");
    // Without a new image nothing is required: the stored alt is kept.
    expect(parse({}).success).toBe(true);
  });
});
