import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { multipartBody, type FormFields } from "../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { createSession } from "../core/auth/sessions.ts";
import { createApiHandler, type ApiHandler } from "./api-handler.ts";
import { readForm } from "./forms.ts";
import { json } from "./http.ts";
import { declareRoute, jsonAnswer } from "./declare-route.ts";
import type { ServedRoute } from "./route-handler.ts";
import { sessionCookie } from "./session-cookie.ts";

// A small route table exercising the shared handler's hooks the way real routes will.
const uploadSchema = z.object({
  title: z.string().trim().min(1, "Title is required"),
  file: z.instanceof(File, { message: "Please select a file to upload." }),
});
const answer = jsonAnswer(z.unknown(), "Anything");
const route = (method: "GET" | "POST", path: string, access: "public" | "admin" = "public") =>
  declareRoute({ method, path, access, summary: path, answers: { 200: answer } });
const routes: ServedRoute[] = [
  { ...route("GET", "/api/private", "admin"), handle: () => Promise.resolve(json({ secret: true })) },
  { ...route("POST", "/api/public-write"), handle: () => Promise.resolve(json({ ok: true }, { status: 201 })) },
  {
    ...route("POST", "/api/upload"),
    // Reads its own form, to test the limit at a size a test can send.
    handle: async ({ request }) => {
      const form = await readForm(request, uploadSchema, 1024);
      return json({ title: form.title, size: form.file.size, name: form.file.name });
    },
  },
];

let app: TestApp;
let handler: ApiHandler;
const call = (path: string, init?: RequestInit) => handler(new Request(new URL(path, testOrigin), init), { ip: "203.0.113.7" });
const sameOrigin = { origin: testOrigin };

beforeAll(async () => {
  app = await createTestApp();
  handler = createApiHandler({ routes, deps: () => Promise.resolve(app.deps) });
});
afterAll(async () => {
  await app.close();
});

describe("session check", () => {
  it("answers 401 on an admin route without a session, or with a forged one", async () => {
    expect((await call("/api/private")).status).toBe(401);
    const forged = await call("/api/private", { headers: { cookie: "nf_session=forged" } });
    expect(forged.status).toBe(401);
    expect(await forged.json()).toEqual({ error: "Your session has expired. Please log in again." });
  });

  it("lets a live session through", async () => {
    const { token } = await createSession(app.deps);
    const cookie = sessionCookie(new Request(testOrigin), token).split(";")[0] as string;
    const response = await call("/api/private", { headers: { cookie } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ secret: true });
  });

  it("names the cookie __Host- with Secure over https, and keeps it HttpOnly and SameSite=Strict", () => {
    const secure = sessionCookie(new Request("https://nofilter.example/api/auth/login"), "t");
    expect(secure).toMatch(/^__Host-nf_session=t;/);
    expect(secure).toMatch(/Secure/);
    const local = sessionCookie(new Request("http://localhost:8888/api/auth/login"), "t");
    expect(local).toMatch(/^nf_session=t;/);
    expect(local).not.toMatch(/Secure/);
    for (const cookie of [secure, local]) {
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Strict/);
      expect(cookie).toMatch(/Path=\//);
    }
  });
});

describe("origin check on state-changing calls", () => {
  it("refuses a POST from another site, or with no origin at all", async () => {
    const crossSite = await call("/api/public-write", { method: "POST", headers: { origin: "https://evil.example" } });
    expect(crossSite.status).toBe(403);
    expect(await crossSite.json()).toEqual({ error: "Cross-site requests are not allowed" });
    expect((await call("/api/public-write", { method: "POST" })).status).toBe(403);
  });

  it("accepts the site's own origin, or Sec-Fetch-Site same-origin", async () => {
    expect((await call("/api/public-write", { method: "POST", headers: sameOrigin })).status).toBe(201);
    expect((await call("/api/public-write", { method: "POST", headers: { "sec-fetch-site": "same-origin" } })).status).toBe(201);
  });
});

describe("multipart forms", () => {
  const post = (body: BodyInit, contentType: string) =>
    call("/api/upload", { method: "POST", body, headers: { ...sameOrigin, "content-type": contentType } });
  const upload = async (fields: FormFields) => {
    const { body, contentType } = await multipartBody(fields);
    return post(body, contentType);
  };

  it("reads text fields and files", async () => {
    const response = await upload({ title: "Checklist", file: new File([new Uint8Array(100)], "list.pdf", { type: "application/pdf" }) });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ title: "Checklist", size: 100, name: "list.pdf" });
  });

  it("answers the schema's message for a missing field or an empty file input", async () => {
    const response = await upload({ title: "Checklist", file: new File([], "") });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "Please select a file to upload." });
  });

  it("answers 413 for a body over the limit, declared or streamed", async () => {
    const response = await upload({ title: "Big", file: new File([new Uint8Array(4096)], "big.zip") });
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: string }).error).toMatch(/too large/);

    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new Uint8Array(512));
        controller.close();
      },
    });
    const streamed = await handler(
      new Request(new URL("/api/upload", testOrigin), {
        method: "POST",
        body: stream,
        headers: { ...sameOrigin, "content-type": "multipart/form-data; boundary=x" },
        duplex: "half",
      } as RequestInit),
      { ip: "203.0.113.7" },
    );
    expect(streamed.status).toBe(413);
  });

  it("answers 400 for a body that is not a form", async () => {
    const response = await post("not a form", "multipart/form-data; boundary=nothing");
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: "The request body must be a multipart form" });
  });
});
