import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formData, multipartBody } from "../../../tests/support/multipart.ts";
import { readForm } from "../../api/forms.ts";
import { loginSchema } from "../../core/auth/login.schema.ts";
import { downloadFormSchema } from "../../core/downloads/download.schema.ts";
import { maxFormBytes } from "../../core/files/upload-limits.ts";
import { postFormSchema } from "../../core/posts/post.schema.ts";
import { apiErrorFrom } from "./api-client.ts";
import { recheckField, validateForm } from "./form-errors.ts";
import { checkChosenImage, checkChosenResource, checkFormSize } from "./upload-checks.ts";

const postValues = { title: "A post", content: "<p>Words</p>", excerpt: "", category: "", readTime: "5", published: false };

describe("the post form's checks (the server's schema, run in the browser)", () => {
  it("names the missing title and content at their fields", () => {
    const result = validateForm(postFormSchema, { ...postValues, title: "  ", content: "" });
    expect(result).toEqual({ ok: false, errors: { title: "Title is required", content: "Content is required" } });
  });

  it("falls back to 5 minutes for a non-numeric read time and refuses one outside 1–60", () => {
    const fallback = validateForm(postFormSchema, { ...postValues, readTime: "soon" });
    expect(fallback.ok && fallback.data.readTime).toBe(5);
    expect(validateForm(postFormSchema, { ...postValues, readTime: "61" })).toEqual({
      ok: false,
      errors: { readTime: "Read time must be between 1 and 60 minutes" },
    });
  });

  it("accepts only the five categories, or none", () => {
    expect(validateForm(postFormSchema, { ...postValues, category: "Funding" }).ok).toBe(true);
    const result = validateForm(postFormSchema, { ...postValues, category: "Crypto" });
    expect(result.ok).toBe(false);
  });
});

describe("the resource form's checks", () => {
  it("asks for title, description and category", () => {
    expect(validateForm(downloadFormSchema, { title: "", description: "", category: "" })).toEqual({
      ok: false,
      errors: { title: "Title is required", description: "Description is required", category: "Category is required" },
    });
  });

  it("refuses a file over 4 MB or of another kind before it is sent", () => {
    const big = new File([new Uint8Array(4 * 1024 * 1024 + 1)], "deck.pdf", { type: "application/pdf" });
    expect(checkChosenResource(big)).toBe("The file is too large (the limit is 4 MB)");
    expect(checkChosenResource(new File(["MZ"], "tool.exe"))).toMatch(/^Only PDF, Word, Excel, PowerPoint or ZIP files/);
    expect(checkChosenResource(new File(["%PDF"], "Checklist.PDF"))).toBeUndefined();
    expect(checkChosenImage(new File(["<svg/>"], "logo.txt", { type: "text/plain" }))).toMatch(/^Only PNG, JPEG/);
    expect(checkChosenImage(new File(["x"], "a.png", { type: "image/png" }))).toBeUndefined();
  });

  it("takes a phone's photo up to 25 MB: it is scaled down before it is sent", () => {
    const photo = (bytes: number) => new File([new Uint8Array(bytes)], "IMG_0042.jpg", { type: "image/jpeg" });
    expect(checkChosenImage(photo(9 * 1024 * 1024))).toBeUndefined();
    expect(checkChosenImage(photo(25 * 1024 * 1024))).toBeUndefined();
    expect(checkChosenImage(photo(25 * 1024 * 1024 + 1))).toBe("The image is too large (the limit is 25 MB)");
  });
});

describe("the size of a whole upload", () => {
  const formWith = (fileBytes: number, thumbnailBytes: number, description = "") =>
    formData({
      title: "Deck",
      description,
      file: new File([new Uint8Array(fileBytes)], "deck.pdf"),
      thumbnail: new File([new Uint8Array(thumbnailBytes)], "thumb.png"),
    });
  const serverReads = async (form: FormData) => {
    const { body, contentType } = await multipartBody(form);
    const request = new Request("http://localhost/api/downloads", { method: "POST", headers: { "content-type": contentType }, body });
    return readForm(request, z.record(z.string(), z.unknown()));
  };

  it("refuses a file and thumbnail that each pass but together exceed what the server takes", async () => {
    const form = formWith(3 * 1024 * 1024, 1.5 * 1024 * 1024);
    expect(checkChosenResource(form.get("file") as File)).toBeUndefined();
    expect(checkFormSize(form, "too large together")).toBe("too large together");
    await expect(serverReads(form)).rejects.toThrow("The upload is too large (the limit is 4 MB)");
  });

  it.each([
    ["plain text", "A short description."],
    ["line breaks, sent as CRLF", "\n".repeat(1000)],
  ])("never lets through a form the server would refuse (%s): the largest one it passes arrives", async (_, description) => {
    let thumbnailBytes = maxFormBytes - 3 * 1024 * 1024;
    while (checkFormSize(formWith(3 * 1024 * 1024, thumbnailBytes, description), "too large")) thumbnailBytes -= 16;
    await expect(serverReads(formWith(3 * 1024 * 1024, thumbnailBytes, description))).resolves.toHaveProperty("title", "Deck");
  });
});

describe("the login form's checks", () => {
  it("requires both fields", () => {
    expect(validateForm(loginSchema, { username: "", password: "" })).toEqual({
      ok: false,
      errors: { username: "Username is required", password: "Password is required" },
    });
  });
});

describe("API failures as the owner reads them", () => {
  it("uses the server's message, else SPEC §8's '{status}: {body}' or the status text", () => {
    expect(apiErrorFrom(400, "Bad Request", '{"error":"Title is required"}').message).toBe("Title is required");
    expect(apiErrorFrom(502, "Bad Gateway", "upstream down").message).toBe("502: upstream down");
    expect(apiErrorFrom(500, "Internal Server Error", "").message).toBe("500: Internal Server Error");
  });
});

describe("a message after its fix", () => {
  const shown = { title: "Title is required", content: "Content is required", "": "The server refused the form" };
  it("leaves with the change that fixes its field, and only that field's", () => {
    expect(recheckField(shown, "title", { content: "Content is required" })).toEqual({
      content: "Content is required",
      "": "The server refused the form",
    });
  });
  it("says what is still wrong when the change did not fix it", () => {
    expect(recheckField(shown, "title", { title: "Title is too long" }).title).toBe("Title is too long");
  });
  it("shows nothing new while typing: a field without a message keeps none", () => {
    expect(recheckField({}, "slug", { slug: "Slug is taken" })).toEqual({});
  });
});
