import { describe, expect, it } from "vitest";
import { formatSegment, parseSegment, segmentSlugs, SegmentSyntaxError } from "./segment-grammar.ts";
import { segmentCondition } from "./segment-sql.ts";

const errorOf = (source: string) => {
  try {
    parseSegment(source);
  } catch (error) {
    if (error instanceof SegmentSyntaxError) return { message: error.message, position: error.position, status: error.status };
    throw error;
  }
  throw new Error(`'${source}' parsed`);
};

describe("the segment grammar", () => {
  it("reads the four terms", () => {
    expect(parseSegment("everything")).toEqual({ kind: "everything" });
    expect(parseSegment("Supporters")).toEqual({ kind: "supporters" });
    expect(formatSegment(parseSegment("NOT supporters AND follows a"))).toBe("NOT supporters AND follows a");
    expect(parseSegment("follows funding")).toEqual({ kind: "follows", slug: "funding", position: 9 });
    expect(parseSegment("tag downloaded:pitch-deck")).toEqual({ kind: "tag", slug: "downloaded:pitch-deck", position: 5 });
  });

  it("binds NOT tighter than AND, and AND tighter than OR", () => {
    expect(formatSegment(parseSegment("follows a OR follows b AND NOT tag c"))).toBe("follows a OR follows b AND NOT tag c");
    expect(parseSegment("follows a OR follows b AND NOT tag c")).toEqual({
      kind: "or",
      operands: [
        { kind: "follows", slug: "a", position: 9 },
        {
          kind: "and",
          operands: [
            { kind: "follows", slug: "b", position: 22 },
            { kind: "not", operand: { kind: "tag", slug: "c", position: 36 } },
          ],
        },
      ],
    });
    // NOT takes one term, not the AND after it.
    expect(parseSegment("NOT tag a AND tag b")).toEqual({
      kind: "and",
      operands: [
        { kind: "not", operand: { kind: "tag", slug: "a", position: 9 } },
        { kind: "tag", slug: "b", position: 19 },
      ],
    });
  });

  it("lets parentheses and NOT NOT change the grouping", () => {
    const grouped = parseSegment("(follows a OR follows b) AND NOT (tag c OR tag d)");
    expect(grouped.kind).toBe("and");
    expect(formatSegment(grouped)).toBe("(follows a OR follows b) AND NOT (tag c OR tag d)");
    expect(parseSegment("NOT NOT everything")).toEqual({ kind: "not", operand: { kind: "not", operand: { kind: "everything" } } });
    // One AND of three, however it was grouped.
    const flat = parseSegment("tag a AND (tag b AND tag c)");
    expect(flat.kind === "and" && flat.operands.length).toBe(3);
  });

  it("reads a comma as an AND taken last, and keywords in any case", () => {
    // The example: "follows Funding OR tag downloaded:pitch-deck, NOT tag vip".
    const tree = parseSegment("follows Funding OR tag downloaded:pitch-deck, NOT tag vip");
    expect(formatSegment(tree)).toBe("(follows funding OR tag downloaded:pitch-deck) AND NOT tag vip");
    expect(formatSegment(parseSegment("Follows a or TAG b and not Everything"))).toBe("follows a OR tag b AND NOT everything");
  });

  it("names the position of each mistake (1 is the first character)", () => {
    expect(errorOf("follows ")).toEqual({ message: "Expected a topic slug after 'follows' at position 9", position: 9, status: 400 });
    expect(errorOf("follows AND tag a").message).toBe("Expected a topic slug after 'follows' at position 9");
    expect(errorOf("tag")).toMatchObject({ message: "Expected a tag slug after 'tag' at position 4" });
    expect(errorOf("tag vip!")).toMatchObject({ message: "'vip!' is not a tag slug at position 5" });
    expect(errorOf("follows a:b")).toMatchObject({ position: 9 });
    expect(errorOf("")).toMatchObject({ position: 1 });
    expect(errorOf("   ")).toMatchObject({ position: 1 });
    expect(errorOf("tag a AND")).toMatchObject({
      message: "Expected 'everything', 'supporters', 'follows <topic>', 'tag <tag>', 'NOT' or '(', found the end at position 10",
    });
    expect(errorOf("tag a tag b")).toMatchObject({ message: "Unexpected 'tag': join terms with AND, OR or a comma at position 7" });
    expect(errorOf("(tag a OR tag b")).toMatchObject({ message: "Expected ')' to close the '(' at position 1, found the end at position 16" });
    expect(errorOf("tag a)")).toMatchObject({ message: "Unexpected a ')' with no '(' before it at position 6" });
    expect(errorOf("funding")).toMatchObject({ position: 1 });
    expect(errorOf("NOT")).toMatchObject({ position: 4 });
    expect(errorOf("tag a OR OR tag b")).toMatchObject({ position: 10 });
  });

  it("refuses nesting past its depth and text past its length, without overflowing", () => {
    expect(errorOf(`${"(".repeat(60)}everything${")".repeat(60)}`).message).toMatch(/nests deeper than 50 levels/);
    expect(errorOf(`${"NOT ".repeat(60)}everything`).message).toMatch(/nests deeper than 50 levels/);
    expect(() => parseSegment(`tag ${"a".repeat(2000)}`)).toThrow(/at most 2000 characters/);
  });

  it("lists each slug once", () => {
    expect(segmentSlugs(parseSegment("follows a OR follows a AND tag x OR NOT tag y"))).toEqual({ topics: ["a"], tags: ["x", "y"] });
  });

  it("compiles to SQL whose values are bound parameters, never text", () => {
    const params: unknown[] = ["first"];
    const sql = segmentCondition(
      parseSegment("follows funding OR tag vip, NOT tag gone"),
      { topics: new Map([["funding", 7]]), tags: new Map([["vip", 3]]) },
      params,
    );
    expect(params).toEqual(["first", 7, 3]);
    expect(sql).toBe(
      "(((s.follows_everything OR s.id IN (SELECT st.subscriber_id FROM subscriber_topics st WHERE st.tag_id = $2)) OR " +
        "s.id IN (SELECT sta.subscriber_id FROM subscriber_tag_assignments sta WHERE sta.subscriber_tag_id = $3)) AND NOT false)",
    );
    expect(sql).not.toMatch(/funding|vip|gone/);
  });
});
