import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SubscriberImportResult } from "../../src/core/subscribers/subscriber-import.schema.ts";
import { ImportResult } from "../../src/islands/admin/subscribers/ImportResult.tsx";
import { multipartBody } from "../support/multipart.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

let app: TestApp;
beforeAll(async () => {
  app = await createTestApp();
});
afterAll(async () => {
  await app.close();
});

describe("issue 26 finding 4: the subscriber import answers a bounded list of refused rows", () => {
  it("lists the first 100 refused rows and counts them all, for a file of 20,000 bad rows", async () => {
    const bad = Array.from({ length: 20_000 }, (_, index) => `not-an-address-${String(index)}`);
    const csv = ["email", "kept@example.com", ...bad, ""].join("\n");
    const { body, contentType } = await multipartBody({ file: new File([csv], "bad.csv", { type: "text/csv" }), consent: "true" });
    const response = await app.call("/api/newsletter/subscribers/import", {
      method: "POST",
      headers: { ...(await app.adminHeaders()), "content-type": contentType },
      body,
    });
    expect(response.status).toBe(200);
    const text = await response.text();
    // 20,000 rows echoed would be about 1 MB; 100 are a few kilobytes.
    expect(text.length).toBeLessThan(10_000);
    const result = JSON.parse(text) as SubscriberImportResult;
    expect(result.imported).toBe(1);
    expect(result.invalidCount).toBe(20_000);
    expect(result.invalid).toHaveLength(100);
    expect(result.invalid[0]).toEqual({ line: 3, reason: 'Invalid email address: "not-an-address-0"' });
    expect(result.invalid[99]?.line).toBe(102);

    // The dashboard counts them all and lists the first 50.
    const shown = renderToStaticMarkup(createElement(ImportResult, { result }));
    expect(shown).toContain("20,000 rows were not imported:");
    expect(shown.match(/<li>/g)).toHaveLength(51);
    expect(shown).toContain("<li>…and 19,950 more</li>");
  });
});
