import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sessionCookie } from "../../src/api/session-cookie.ts";
import { createTestApp, type TestApp } from "../support/test-app.ts";

/** Issue 26, item 10: `/api/openapi.json` names the session cookie the browser really gets. */
let app: TestApp;

interface Document {
  components: { securitySchemes: { session: { type: string; in: string; name: string } } };
}

async function schemeOver(origin: string): Promise<Document["components"]["securitySchemes"]["session"]> {
  const response = await app.handler(new Request(`${origin}/api/openapi.json`), { ip: "203.0.113.8" });
  expect(response.status).toBe(200);
  return ((await response.json()) as Document).components.securitySchemes.session;
}

/** The cookie's name in the Set-Cookie a login over `origin` sends. */
const setCookieName = (origin: string) => sessionCookie(new Request(`${origin}/api/auth/login`), "token").split("=")[0];

describe("the OpenAPI document's session cookie", () => {
  beforeAll(async () => {
    app = await createTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it("is __Host-nf_session over https, as the login sets it", async () => {
    const scheme = await schemeOver("https://nofilter.example");
    expect(scheme).toEqual({ type: "apiKey", in: "cookie", name: "__Host-nf_session" });
    expect(scheme.name).toBe(setCookieName("https://nofilter.example"));
  });

  it("is nf_session on plain http (localhost), as the login sets it", async () => {
    const scheme = await schemeOver("http://localhost:8888");
    expect(scheme.name).toBe("nf_session");
    expect(scheme.name).toBe(setCookieName("http://localhost:8888"));
  });
});
