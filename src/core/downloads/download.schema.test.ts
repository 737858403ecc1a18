import { describe, expect, it } from "vitest";
import { downloadFormSchema, downloadRequestSchema } from "./download.schema.ts";

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe("download form schema", () => {
  const valid = { title: " Checklist ", description: "Every step", category: "Checklists" };

  it("trims text and keeps optional files", () => {
    const file = new File(["x"], "a.pdf");
    expect(downloadFormSchema.parse({ ...valid, file })).toEqual({ ...valid, title: "Checklist", file, thumbnailDecorative: false });
    expect(downloadFormSchema.parse({ ...valid, category: "Playbooks" }).category).toBe("Playbooks");
  });

  it("requires the thumbnail's alt text with a new thumbnail, unless it is marked decorative", () => {
    const thumbnail = new File(["x"], "thumb.png");
    const issue = (fields: Record<string, unknown>) => downloadFormSchema.safeParse({ ...valid, ...fields }).error?.issues[0];
    expect(issue({ thumbnail })).toMatchObject({ path: ["thumbnailAlt"], message: "Describe the thumbnail (alt text), or mark it decorative" });
    expect(downloadFormSchema.parse({ ...valid, thumbnail, thumbnailAlt: "Checklist card" }).thumbnailAlt).toBe("Checklist card");
    expect(downloadFormSchema.parse({ ...valid, thumbnail, thumbnailDecorative: "true" }).thumbnailDecorative).toBe(true);
    // No new thumbnail: nothing to describe (the stored alt is kept).
    expect(downloadFormSchema.safeParse(valid).success).toBe(true);
  });

  it("treats an empty file field as no file", () => {
    const parsed = downloadFormSchema.parse({ ...valid, file: "", thumbnail: "" });
    expect(parsed.file).toBeUndefined();
    expect(parsed.thumbnail).toBeUndefined();
  });

  it.each([
    [{ title: undefined }, "Title is required"],
    [{ title: "   " }, "Title is required"],
    [{ title: "t".repeat(201) }, "The title must be at most 200 characters"],
    [{ description: undefined }, "Description is required"],
    [{ description: "" }, "Description is required"],
    [{ description: "d".repeat(2001) }, "The description must be at most 2000 characters"],
    [{ category: undefined }, "Category is required"],
    [{ category: " " }, "Category is required"],
    [{ category: "c".repeat(51) }, "The category must be at most 50 characters"],
    [{ file: "not a file" }, "Please select a file to upload."],
    [{ thumbnail: "not a file" }, "The thumbnail must be an image file"],
  ])("refuses %o with its message", (change, message) => {
    expect(firstMessage(downloadFormSchema.safeParse({ ...valid, ...change }))).toBe(message);
  });
});

describe("download request schema", () => {
  it("trims and lower-cases the email", () => {
    expect(downloadRequestSchema.parse({ email: "  Founder@Example.COM " })).toEqual({ email: "founder@example.com" });
  });

  it.each([{ email: "not-an-email" }, { email: `${"a".repeat(243)}@example.com` }])("refuses %o as invalid", (body) => {
    expect(firstMessage(downloadRequestSchema.safeParse(body))).toBe("Please enter a valid email address.");
  });

  it.each([{}, { email: "" }, { email: "   " }, null, "x"])("refuses %o as missing", (body) => {
    expect(firstMessage(downloadRequestSchema.safeParse(body))).toBe("Email is required");
  });
});
