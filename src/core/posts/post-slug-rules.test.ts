import { describe, expect, it } from "vitest";
import { firstFreeSlug, maxSlugLength, postPath, slugFromTitle, slugSchema } from "./post-slug-rules.ts";

const refusal = (slug: string) => {
  const result = slugSchema.safeParse(slug);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe("slugFromTitle", () => {
  it("makes lowercase words joined by hyphens, in ASCII", () => {
    expect(slugFromTitle("Profit Is an Opinion. Cash Is a Fact.")).toBe("profit-is-an-opinion-cash-is-a-fact");
    expect(slugFromTitle("  Café crème & Cash Flow  ")).toBe("cafe-creme-and-cash-flow");
    expect(slugFromTitle("What 47 Investor Nos Taught Us")).toBe("what-47-investor-nos-taught-us");
  });

  it("always gives a slug the form would accept", () => {
    for (const title of ["Won't", "!!!", "2024", "Page", "Category", "Post Not Found", "日本語のタイトル", "x".repeat(300), "a b ".repeat(100)]) {
      const slug = slugFromTitle(title);
      expect(refusal(slug), `${title} → ${slug}`).toBeUndefined();
    }
  });

  it("never answers digits only (that is an id), a reserved word, or nothing", () => {
    expect(slugFromTitle("2024")).toBe("post-2024");
    expect(slugFromTitle("Page")).toBe("post-page");
    expect(slugFromTitle("???")).toBe("post");
  });

  it("cuts a long title at a word boundary within the limit", () => {
    const slug = slugFromTitle("founders ".repeat(20));
    expect(slug.length).toBeLessThanOrEqual(maxSlugLength);
    expect(slug).toMatch(/^(founders-)*founders$/);
  });
});

describe("slugSchema", () => {
  it("takes lowercase letters, digits and single hyphens, trimmed", () => {
    expect(slugSchema.parse("  my-first-10-customers ")).toBe("my-first-10-customers");
  });

  it("refuses what would not make a clean, unambiguous address", () => {
    expect(refusal("My Post")).toBe("Slug may contain only lowercase letters, numbers and single hyphens");
    expect(refusal("double--hyphen")).toBe("Slug may contain only lowercase letters, numbers and single hyphens");
    expect(refusal("-leading")).toBe("Slug may contain only lowercase letters, numbers and single hyphens");
    expect(refusal("ünï")).toBe("Slug may contain only lowercase letters, numbers and single hyphens");
    expect(refusal("12345")).toBe("Slug must contain a letter");
    expect(refusal("page")).toBe("This slug is reserved; please choose another");
    expect(refusal("a".repeat(maxSlugLength + 1))).toBe(`Slug must be ${String(maxSlugLength)} characters or less`);
    expect(refusal("a".repeat(maxSlugLength))).toBeUndefined();
  });
});

describe("firstFreeSlug", () => {
  const takenOf = (taken: string[]) => (candidates: string[]) => Promise.resolve(new Set(candidates.filter((slug) => taken.includes(slug))));

  it("answers the base when free, else the first free numbered one", async () => {
    expect(await firstFreeSlug("runway", takenOf([]))).toBe("runway");
    expect(await firstFreeSlug("runway", takenOf(["runway", "runway-2"]))).toBe("runway-3");
  });

  it("keeps looking past a full batch, and keeps numbered slugs within the limit", async () => {
    const base = "r".repeat(maxSlugLength);
    const taken = [
      base,
      ...Array.from({ length: 30 }, (_, index) => `${"r".repeat(maxSlugLength - 1 - String(index + 2).length)}-${String(index + 2)}`),
    ];
    const slug = await firstFreeSlug(base, takenOf(taken));
    expect(slug).toBe(`${"r".repeat(maxSlugLength - 3)}-32`);
  });
});

it("puts a post's page under /blog", () => {
  expect(postPath("runway-math")).toBe("/blog/runway-math");
});
