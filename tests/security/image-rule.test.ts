import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../support/test-app.ts";
import { multipartBody } from "../support/multipart.ts";
import { foreignImageSources } from "../../src/islands/admin/posts/foreign-images.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("finding 10: one image rule for posts, held by the sanitizer and the editor alike", () => {
  it("keeps only the site's own stored images in a saved post (the CSP would block any other)", async () => {
    const { body, contentType } = await multipartBody({
      title: "Pictures",
      content:
        '<p>a</p><img src="https://images.example/cat.png" alt="web"><img src="http://images.example/dog.png"><img src="/api/files/images/own.png" alt="own">',
      published: "true",
    });
    const response = await app.call("/api/blog-posts", {
      method: "POST",
      headers: { ...(await app.adminHeaders()), "content-type": contentType },
      body,
    });
    expect(response.status).toBe(201);
    const { content } = (await response.json()) as { content: string };
    expect(content).toBe('<p>a</p><img src="/api/files/images/own.png" alt="own" />');
  });

  it("tells the owner before saving which images would not show", () => {
    expect(
      foreignImageSources('<p><img src="https://images.example/cat.png"><img src="/api/files/images/own.png"><img src="/api/files/../secret"></p>'),
    ).toEqual(["https://images.example/cat.png", "/api/files/../secret"]);
    expect(foreignImageSources('<p><img src="/api/files/images/own.png" alt="own"></p>')).toEqual([]);
  });
});
