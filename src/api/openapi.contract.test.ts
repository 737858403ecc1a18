import { readFile } from "node:fs/promises";
import { Ajv2020 } from "@redocly/ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipartBody, type FormFields } from "../../tests/support/multipart.ts";
import { createTestApp, testOrigin, type TestApp } from "../../tests/support/test-app.ts";
import { apiContract } from "./routes.ts";
import { buildOpenApiDocument } from "./openapi.ts";

/**
 * The contract test (issue 43 point 6): every operation of the OpenAPI document is called against
 * the real handlers, and each answer — status, media type, headers, body — is checked against
 * what the document declares for that status. A new operation fails "every operation is called"
 * until a call is added to `calls` below.
 */

/** What the calls need made first (by `beforeAll`, through the API itself). */
interface Fixtures {
  /** A published post. */
  postId: number;
  /** A draft (a preview link is for a draft). */
  draftId: number;
}

interface Call {
  /** The concrete path and query (the operation's own path, filled in). */
  path: string | ((fixtures: Fixtures) => string);
  /** The status the call is made to get; the answer is then checked against the document's for it. */
  status: number;
  /** `admin` (the default): the owner's session; `anonymous`: nobody (still from the site's own origin). */
  as?: "admin" | "anonymous";
  /** A JSON body. */
  json?: unknown;
  /** A multipart body. */
  form?: FormFields | ((fixtures: Fixtures) => FormFields);
  /** Another method than the operation's, to get its 405 (`Allow`). */
  method?: string;
}

/** A path that names nothing. */
const none = 999_999;
const png = new Uint8Array(await readFile(new URL("../../netlify/local/demo-content/files/thumb-cold-email-templates.png", import.meta.url)));
const postFields = { title: "Contract post", content: "<p>Every answer as declared.</p>", published: "true" };

/**
 * One or more calls per operation, by `operationId`: a happy path where it is cheap, else an error
 * path the document declares (401 without a session, 400 for an empty body, 404 for an id that
 * names nothing, 403 for a forged link). A route added to the table needs its line here.
 */
const calls: Record<string, Call | Call[]> = {
  "health.check": [
    { path: "/api/health", status: 200, as: "anonymous" },
    { path: "/api/health", method: "DELETE", status: 405, as: "anonymous" },
  ],
  "health.openApi": { path: "/api/openapi.json", status: 200, as: "anonymous" },
  // A login's happy path (and a wrong password) hashes for seconds: the missing field is the cheap answer.
  "auth.login": { path: "/api/auth/login", as: "anonymous", json: { username: "admin" }, status: 400 },
  "auth.logout": { path: "/api/auth/logout", as: "anonymous", status: 200 },
  "auth.reauthenticate": { path: "/api/auth/reauthenticate", json: {}, status: 400 },
  "auth.changePassword": { path: "/api/auth/password", json: {}, status: 400 },
  "auth.session": { path: "/api/auth/session", as: "anonymous", status: 200 },
  "passkeys.loginOptions": { path: "/api/auth/passkeys/login/options", as: "anonymous", status: 200 },
  "passkeys.login": { path: "/api/auth/passkeys/login/verify", as: "anonymous", json: {}, status: 400 },
  "passkeys.recoveryCodeLogin": { path: "/api/auth/login/recovery-code", as: "anonymous", json: {}, status: 400 },
  "passkeys.security": [
    { path: "/api/auth/security", status: 200 },
    { path: "/api/auth/security", as: "anonymous", status: 401 },
  ],
  "passkeys.registrationOptions": { path: "/api/auth/passkeys/registration/options", status: 200 },
  "passkeys.register": { path: "/api/auth/passkeys/registration/verify", json: {}, status: 400 },
  "passkeys.rename": { path: `/api/auth/passkeys/${String(none)}`, json: { name: "Laptop" }, status: 404 },
  "passkeys.remove": { path: `/api/auth/passkeys/${String(none)}`, status: 404 },
  "passkeys.requirement": { path: "/api/auth/passkey-requirement", json: {}, status: 400 },
  "passkeys.recoveryCodes": { path: "/api/auth/recovery-codes", status: 201 },
  "blogPosts.list": [
    { path: "/api/blog-posts?published=true", as: "anonymous", status: 200 },
    { path: "/api/blog-posts", status: 200 },
    { path: "/api/blog-posts", as: "anonymous", status: 401 },
  ],
  "blogPosts.create": { path: "/api/blog-posts", form: postFields, status: 201 },
  "blogPosts.uploadImage": [
    { path: "/api/blog-posts/upload-image", form: { image: new File([png], "cover.png", { type: "image/png" }) }, status: 200 },
    { path: "/api/blog-posts/upload-image", form: { image: new File(["not an image"], "cover.txt", { type: "text/plain" }) }, status: 415 },
  ],
  "blogPosts.get": { path: ({ postId }) => `/api/blog-posts/${String(postId)}`, as: "anonymous", status: 200 },
  "blogPosts.update": {
    path: ({ postId }) => `/api/blog-posts/${String(postId)}`,
    form: { ...postFields, title: "Contract post, edited" },
    status: 200,
  },
  "blogPosts.remove": { path: `/api/blog-posts/${String(none)}`, status: 404 },
  "tags.list": { path: "/api/tags", as: "anonymous", status: 200 },
  "tags.create": [
    { path: "/api/tags", json: { name: "Contract tag" }, status: 201 },
    { path: "/api/tags", json: { name: "x".repeat(70_000) }, status: 413 },
  ],
  "tags.update": { path: "/api/tags/no-such-tag", json: { name: "Renamed" }, status: 404 },
  "tags.remove": { path: "/api/tags/no-such-tag", status: 404 },
  "downloads.list": { path: "/api/downloads", as: "anonymous", status: 200 },
  "downloads.create": { path: "/api/downloads", form: {}, status: 400 },
  "downloads.update": { path: `/api/downloads/${String(none)}`, form: { title: "Renamed" }, status: 400 },
  "downloads.remove": { path: `/api/downloads/${String(none)}`, status: 404 },
  "downloads.request": { path: `/api/downloads/${String(none)}/request`, as: "anonymous", json: { email: "reader@example.com" }, status: 404 },
  "downloads.file": { path: "/api/downloads/1/file?expires=1&signature=forged", as: "anonymous", status: 403 },
  "files.image": { path: "/api/files/images/no-such-image.png", as: "anonymous", status: 404 },
  "siteSettings.list": { path: "/api/site-settings", as: "anonymous", status: 200 },
  "siteSettings.update": { path: "/api/site-settings/no_such_setting", json: { value: "x" }, status: 404 },
  "siteSettings.hide": { path: "/api/site-settings/no_such_setting/hidden", status: 404 },
  "siteBuild.status": { path: "/api/site-build", status: 200 },
  "setup.checklist": { path: "/api/setup-checklist", status: 200 },
  "setup.removeDemoContent": { path: "/api/setup/remove-demo-content", status: 200 },
  // An accepted address is mailed its confirmation before the call returns here (seconds): the invalid one is the cheap answer.
  "newsletter.subscribe": [
    { path: "/api/newsletter/subscribe", as: "anonymous", json: { email: "not an address" }, status: 400 },
    // A browser's own form post, without JavaScript: to the failure page.
    { path: "/api/newsletter/subscribe", as: "anonymous", form: { email: "not an address" }, status: 303 },
  ],
  "newsletter.subscribers": { path: "/api/newsletter/subscribers", status: 200 },
  "newsletter.counts": { path: "/api/newsletter/subscribers/counts", status: 200 },
  "newsletter.export": { path: "/api/newsletter/subscribers/export", status: 200 },
  "newsletter.import": { path: "/api/newsletter/subscribers/import", form: {}, status: 400 },
  "newsletter.tags": { path: "/api/newsletter/subscribers/tags", json: {}, status: 400 },
  "newsletter.exportOne": { path: `/api/newsletter/subscribers/${String(none)}/export`, status: 404 },
  "newsletter.erase": { path: `/api/newsletter/subscribers/${String(none)}`, status: 404 },
  "newsletterSends.start": { path: "/api/newsletter/sends", json: {}, status: 400 },
  "newsletterSends.list": { path: "/api/newsletter/sends", status: 200 },
  "newsletterSends.test": { path: "/api/newsletter/sends/test", json: {}, status: 400 },
  "newsletterSends.preview": { path: "/api/newsletter/sends/preview", status: 400 },
  "newsletterSends.get": { path: `/api/newsletter/sends/${String(none)}`, status: 404 },
  "newsletterSends.failed": { path: `/api/newsletter/sends/${String(none)}/failed`, status: 404 },
  "newsletterSends.retry": { path: `/api/newsletter/sends/${String(none)}/retry`, status: 404 },
  "newsletterSends.resume": { path: `/api/newsletter/sends/${String(none)}/resume`, status: 404 },
  "newsletterSends.cancel": { path: `/api/newsletter/sends/${String(none)}/cancel`, status: 404 },
  "newsletterSends.listHealth": { path: "/api/newsletter/list-health", status: 200 },
  "segments.audience": { path: "/api/newsletter/audience", json: {}, status: 200 },
  "segments.list": { path: "/api/segments", status: 200 },
  "segments.create": { path: "/api/segments", json: {}, status: 400 },
  "segments.get": { path: `/api/segments/${String(none)}`, status: 404 },
  "segments.update": { path: `/api/segments/${String(none)}`, json: {}, status: 400 },
  "segments.remove": { path: `/api/segments/${String(none)}`, status: 404 },
  "mail.outbox": { path: "/api/mail/outbox", status: 200 },
  "mail.retry": { path: "/api/mail/outbox/retry", status: 202 },
  "subscriptions.confirmPage": { path: "/api/newsletter/confirm?token=forged", as: "anonymous", status: 403 },
  "subscriptions.confirm": { path: "/api/newsletter/confirm?token=forged", as: "anonymous", status: 403 },
  "subscriptions.unsubscribePage": { path: "/api/newsletter/unsubscribe?token=forged", as: "anonymous", status: 403 },
  "subscriptions.unsubscribe": { path: "/api/newsletter/unsubscribe?token=forged", as: "anonymous", status: 403 },
  "preferences.read": { path: "/api/preferences?token=forged", as: "anonymous", status: 403 },
  "preferences.save": { path: "/api/preferences?token=forged", as: "anonymous", json: {}, status: 400 },
  "preferences.page": { path: "/api/newsletter/preferences?token=forged", as: "anonymous", status: 403 },
  "previewLinks.create": [
    { path: ({ draftId }) => `/api/blog-posts/${String(draftId)}/preview-links`, json: { expiresInHours: 24 }, status: 201 },
    { path: ({ postId }) => `/api/blog-posts/${String(postId)}/preview-links`, json: { expiresInHours: 24 }, status: 409 },
  ],
  "previewLinks.list": { path: ({ draftId }) => `/api/blog-posts/${String(draftId)}/preview-links`, status: 200 },
  "previewLinks.remove": { path: `/api/preview-links/${String(none)}`, status: 404 },
  "emailEvents.receive": { path: "/api/email-events/no-such-provider", as: "anonymous", status: 404 },
  "imports.create": { path: "/api/imports", form: {}, status: 400 },
  "imports.get": { path: `/api/imports/${String(none)}`, status: 404 },
  "backups.list": [
    { path: "/api/backups", status: 200 },
    { path: "/api/backups", as: "anonymous", status: 401 },
  ],
  "backups.create": { path: "/api/backups", as: "anonymous", status: 401 },
  "backups.download": { path: "/api/backups/1/download?expires=1&signature=forged", status: 403 },
  "backups.restore": { path: "/api/restores", form: {}, status: 400 },
  "backups.restoreRun": { path: `/api/restores/${String(none)}`, status: 404 },
  "uploads.start": { path: "/api/uploads", as: "anonymous", status: 401 },
  "uploads.part": { path: "/api/uploads/no-such-upload/1", status: 404 },
  "uploads.complete": { path: "/api/uploads/no-such-upload/complete", status: 404 },
  "stats.event": { path: "/api/events", as: "anonymous", json: {}, status: 400 },
  "stats.stats": { path: "/api/stats", status: 200 },
  "stats.audience": { path: "/api/stats/audience", status: 200 },
  "newsletter.tagList": { path: "/api/newsletter/subscribers/tags", status: 200 },
  "polls.create": { path: "/api/polls", json: { question: "Which round?", answers: [{ text: "Seed" }, { text: "Series A" }] }, status: 201 },
  "polls.list": { path: "/api/polls", status: 200 },
  "polls.get": { path: `/api/polls/${String(none)}`, status: 404 },
  "polls.page": { path: `/api/polls/${String(none)}/answer?token=forged`, as: "anonymous", status: 403 },
  "polls.answer": { path: `/api/polls/${String(none)}/answer?token=forged`, as: "anonymous", json: { answer: 0 }, status: 403 },
  "stats.click": { path: "/api/newsletter/click", as: "anonymous", status: 302 },
  "sequences.list": { path: "/api/sequences", status: 200 },
  "sequences.update": { path: "/api/sequences/no-such-sequence", json: {}, status: 404 },
  "sequences.stats": { path: "/api/sequences/no-such-sequence/stats", status: 404 },
  "sequences.preview": { path: "/api/sequences/no-such-sequence/preview", json: {}, status: 404 },
  "sequences.testStep": { path: "/api/sequences/no-such-sequence/steps/1/test", json: {}, status: 404 },
  "apiKeys.list": { path: "/api/keys", status: 200 },
  "apiKeys.create": { path: "/api/keys", json: {}, status: 400 },
  "apiKeys.revoke": { path: `/api/keys/${String(none)}`, status: 404 },
  "fediverse.followers": { path: "/api/fediverse/followers", status: 200 },
  "fediverse.removeFollower": { path: `/api/fediverse/followers/${String(none)}`, status: 404 },
  "fediverse.blocks": { path: "/api/fediverse/blocks", status: 200 },
  "fediverse.block": { path: "/api/fediverse/blocks", json: {}, status: 400 },
  "fediverse.unblock": { path: "/api/fediverse/blocks/nowhere.example", status: 404 },
  "fediverse.deliveries": { path: "/api/fediverse/deliveries", status: 200 },
  "fediverse.stats": { path: "/api/stats/fediverse", status: 200 },
  "webhooks.list": { path: "/api/webhooks", status: 200 },
  "webhooks.create": { path: "/api/webhooks", json: {}, status: 400 },
  "webhooks.update": { path: `/api/webhooks/${String(none)}`, json: {}, status: 404 },
  "webhooks.remove": { path: `/api/webhooks/${String(none)}`, status: 404 },
  "webhooks.test": { path: `/api/webhooks/${String(none)}/test`, status: 404 },
  "webhooks.rotateSecret": { path: `/api/webhooks/${String(none)}/rotate-secret`, status: 404 },
  "webhooks.deliveries": { path: `/api/webhooks/${String(none)}/deliveries`, status: 404 },
  "webhooks.redeliver": { path: `/api/webhooks/${String(none)}/deliveries/redeliver`, json: {}, status: 400 },
  "payments.checkout": { path: "/api/checkout", as: "anonymous", json: {}, status: 400 },
  "payments.checkoutStatus": { path: "/api/checkout/status", as: "anonymous", status: 400 },
  "payments.webhook": { path: "/api/stripe/webhook", as: "anonymous", status: 404 },
  "payments.list": { path: "/api/payments", status: 200 },
  "payments.export": { path: "/api/payments/export", status: 200 },
  "payments.revenue": { path: "/api/revenue", status: 200 },
  "payments.config": { path: "/api/payments/config", status: 200 },
  "readers.signIn": { path: "/api/readers/sign-in", as: "anonymous", json: {}, status: 400 },
  "readers.verify": { path: "/api/readers/sign-in/verify", as: "anonymous", json: {}, status: 400 },
  "readers.signOut": { path: "/api/readers/sign-out", as: "anonymous", status: 204 },
  "readers.me": { path: "/api/readers/me", as: "anonymous", status: 401 },
  "readers.rename": { path: "/api/readers/me", as: "anonymous", json: {}, status: 400 },
  "readers.replyNotices": { path: "/api/readers/me/reply-notices", as: "anonymous", json: { on: true }, status: 401 },
  "readers.comments": { path: "/api/readers/me/comments", as: "anonymous", status: 401 },
  "readers.erase": { path: "/api/readers/me", as: "anonymous", status: 401 },
  "readers.export": { path: "/api/readers/me/export", as: "anonymous", status: 401 },
  "readers.endSessions": { path: `/api/readers/${String(none)}/sign-out`, status: 200 },
  "payments.billingPortal": { path: "/api/billing-portal", as: "anonymous", json: {}, status: 404 },
  "payments.readerPayments": { path: "/api/readers/me/payments", as: "anonymous", status: 401 },
  "comments.list": { path: ({ postId }) => `/api/posts/${String(postId)}/comments`, as: "anonymous", status: 200 },
  "comments.create": [
    { path: ({ postId }) => `/api/posts/${String(postId)}/comments`, json: { body: "Thanks for writing this down." }, status: 201 },
    { path: ({ postId }) => `/api/posts/${String(postId)}/comments`, as: "anonymous", json: { body: "Me too." }, status: 401 },
  ],
  "comments.queue": { path: "/api/comments", status: 200 },
  "comments.count": { path: "/api/comments/count", status: 200 },
  "comments.counts": { path: "/api/comments/counts?posts=1,2", as: "anonymous", status: 200 },
  "comments.moderate": { path: "/api/comments/moderate", json: {}, status: 400 },
  // Without a token (or with a bad one) the page says the link is not valid: HTML, 200.
  "comments.noticesUnsubscribePage": { path: "/api/comments/notices/unsubscribe", as: "anonymous", status: 200 },
  "comments.noticesUnsubscribe": { path: "/api/comments/notices/unsubscribe", as: "anonymous", status: 200 },
  "comments.edit": { path: `/api/comments/${String(none)}`, json: { body: "Edited." }, status: 404 },
  "comments.remove": { path: `/api/comments/${String(none)}`, status: 404 },
  "comments.ban": { path: `/api/readers/${String(none)}/ban`, status: 404 },
  "comments.unban": { path: `/api/readers/${String(none)}/unban`, status: 404 },
  "comments.hold": { path: `/api/readers/${String(none)}/hold`, status: 404 },
  "comments.unhold": { path: `/api/readers/${String(none)}/unhold`, status: 404 },
};

type Schema = Record<string, unknown>;
interface MediaType {
  schema?: Schema;
}
interface ResponseObject {
  $ref?: string;
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
}
interface Operation {
  operationId: string;
  responses: Record<string, ResponseObject>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { responses: Record<string, ResponseObject>; schemas: Record<string, Schema>; headers: Record<string, unknown> };
}

const document = buildOpenApiDocument(apiContract) as unknown as Document;

/** Each operation with its method and path template, by `operationId`. */
const operations = new Map<string, { method: string; template: string; operation: Operation }>();
for (const [template, item] of Object.entries(document.paths)) {
  for (const [method, operation] of Object.entries(item))
    operations.set(operation.operationId, { method: method.toUpperCase(), template, operation });
}

/** A `#/components/…` reference, followed (zod's own `#/$defs/…` stay: they resolve inside their schema). */
function resolve<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => resolve(item)) as T;
  if (value === null || typeof value !== "object") return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/")) {
    const target = ref
      .slice(2)
      .split("/")
      .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], document);
    return resolve(target as T);
  }
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, resolve(inner)])) as T;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
// The formats the document uses (ajv knows none of its own).
ajv.addFormat("date-time", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/);
ajv.addFormat("uuid", /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i);
ajv.addFormat("uri", (value: string) => URL.canParse(value));
ajv.addFormat("binary", () => true);

/** Whether a concrete path is one its template describes. */
function fits(template: string, path: string): boolean {
  const pattern = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
  return new RegExp(`^${pattern}$`).test(new URL(path, testOrigin).pathname);
}

/** Whether a content type matches a declared media type range (`image/*`). */
function mediaTypeFits(range: string, type: string): boolean {
  return range === type || (range.endsWith("/*") && type.startsWith(range.slice(0, -1)));
}

let app: TestApp;
let admin: Record<string, string>;
let fixtures: Fixtures;

async function send(call: Call, method: string): Promise<Response> {
  const headers: Record<string, string> = call.as === "anonymous" ? { origin: testOrigin } : { ...admin };
  let body: BodyInit | undefined;
  if (call.json !== undefined) {
    headers["content-type"] = "application/json";
    body = JSON.stringify(call.json);
  } else if (call.form) {
    const encoded = await multipartBody(typeof call.form === "function" ? call.form(fixtures) : call.form);
    headers["content-type"] = encoded.contentType;
    body = encoded.body;
  }
  const path = typeof call.path === "function" ? call.path(fixtures) : call.path;
  return app.call(path, { method, headers, ...(body !== undefined && { body }) });
}

/** The answer against the document's response for its status: declared, with its headers, media type and a body its schema takes. */
async function checkAnswer(operationId: string, response: Response): Promise<void> {
  const { operation } = operations.get(operationId) ?? {};
  const declared = operation && resolve(operation.responses[String(response.status)]);
  const text = await response.text();
  expect(declared, `${operationId} answered ${String(response.status)}, which the document does not declare: ${text.slice(0, 200)}`).toBeDefined();
  if (!declared) return;
  for (const name of Object.keys(declared.headers ?? {})) {
    expect(response.headers.has(name), `${operationId} ${String(response.status)}: the declared header ${name}`).toBe(true);
  }
  const type = (response.headers.get("content-type") ?? "").split(";")[0]?.trim() ?? "";
  if (!declared.content) {
    expect(text, `${operationId} ${String(response.status)} declares no body`).toBe("");
    return;
  }
  const ranges = Object.keys(declared.content);
  const range = ranges.find((candidate) => mediaTypeFits(candidate, type));
  expect(range, `${operationId} ${String(response.status)} answered ${type}, the document says ${ranges.join(" or ")}`).toBeDefined();
  if (!range) return;
  const schema = declared.content[range]?.schema;
  if (!schema) return;
  if (type === "application/json") {
    const validate = ajv.compile(schema);
    const valid = validate(JSON.parse(text));
    expect(validate.errors ?? [], `${operationId} ${String(response.status)}: the body against its schema`).toEqual([]);
    expect(valid).toBe(true);
  } else if (schema.type === "string" && schema.format !== "binary") {
    expect(text.length, `${operationId} ${String(response.status)}: a text body`).toBeGreaterThan(0);
  }
}

beforeAll(async () => {
  app = await createTestApp();
  admin = await app.adminHeaders();
  const createPost = async (fields: FormFields) => {
    const { body, contentType } = await multipartBody(fields);
    const created = await app.call("/api/blog-posts", { method: "POST", headers: { ...admin, "content-type": contentType }, body });
    expect(created.status).toBe(201);
    return ((await created.json()) as { id: number }).id;
  };
  fixtures = { postId: await createPost(postFields), draftId: await createPost({ ...postFields, published: "false" }) };
});
afterAll(async () => {
  await app.close();
});

describe("the OpenAPI document against the real handlers", () => {
  it("calls every operation of the document, and only those", () => {
    const missing = [...operations.keys()].filter((id) => !(id in calls));
    const unknown = Object.keys(calls).filter((id) => !operations.has(id));
    expect(missing, "operations with no call in `calls` (openapi.contract.test.ts): add one").toEqual([]);
    expect(unknown, "calls for operations the document does not have").toEqual([]);
  });

  for (const [operationId, entry] of Object.entries(calls)) {
    for (const call of [entry].flat()) {
      const label = [operationId, call.method, call.as === "anonymous" && "anonymous", call.form && "form", `→ ${String(call.status)}`]
        .filter(Boolean)
        .join(" ");
      it(label, async () => {
        const found = operations.get(operationId);
        expect(found, `${operationId} is not in the document`).toBeDefined();
        if (!found) return;
        const path = typeof call.path === "function" ? call.path(fixtures) : call.path;
        expect(fits(found.template, path), `${path} is a path of ${found.template}`).toBe(true);
        const response = await send(call, call.method ?? found.method);
        const copy = response.clone();
        expect(response.status, `${operationId}: ${(await copy.text()).slice(0, 300)}`).toBe(call.status);
        await checkAnswer(operationId, response);
      });
    }
  }
});
