/**
 * `/preview/{id}/{signature}`: a draft's preview, rendered on demand (Netlify: the `preview`
 * function; `npm start`: the local server calls the same function here). The page is the built
 * post template filled with the draft as it is now (src/lib/preview-template.ts), under a
 * "Preview — not published" banner, never cached or indexed. An expired or revoked link answers
 * 410, a link of a post since published redirects to the post (docs/decisions/0035-preview-links.md).
 */
import { openPreview, previewPathPrefix, type PreviewLinksDeps } from "../core/posts/preview-links.service.ts";
import { fillPreviewTemplate, previewGoneVariant, previewTemplatePath, previewVariant } from "../lib/preview-template.ts";
import { sitePageCsp, sitePermissionsPolicy, withSiteHeaders, type LoadTemplate } from "./site-pages.ts";

export { siteTemplates, type LoadTemplate } from "./site-pages.ts";

const pageHeaders = {
  "content-type": "text/html; charset=utf-8",
  "cache-control": "no-store",
  "x-robots-tag": "noindex",
  // The signature is in the URL: no Referer leaves with it.
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  // As netlify.toml's for the built pages, which a function's answer does not get.
  "content-security-policy": sitePageCsp,
  "permissions-policy": sitePermissionsPolicy,
};

/** The answer to a request for a preview address, with the headers the built pages get (HSTS over HTTPS). */
export async function answerPreview(deps: PreviewLinksDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  return withSiteHeaders(request, await previewAnswer(deps, request, loadTemplate));
}

async function previewAnswer(deps: PreviewLinksDeps, request: Request, loadTemplate: LoadTemplate): Promise<Response> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return new Response("Method not allowed", { status: 405, headers: { allow: "GET, HEAD", "cache-control": "no-store" } });
  }
  const [id = "", signature = "", ...rest] = new URL(request.url).pathname.slice(previewPathPrefix.length).split("/");
  const answer =
    rest.filter(Boolean).length > 0
      ? ({ kind: "unknown" } as const)
      : await openPreview(deps, { id, signature }, { countView: request.method === "GET" });
  switch (answer.kind) {
    case "published":
      return new Response(null, { status: 302, headers: { location: answer.path, "cache-control": "no-store", "x-robots-tag": "noindex" } });
    case "gone":
    case "unknown":
      return new Response(await loadTemplate(previewTemplatePath(previewGoneVariant)), {
        status: answer.kind === "gone" ? 410 : 404,
        headers: pageHeaders,
      });
    case "preview": {
      const template = await loadTemplate(previewTemplatePath(previewVariant(answer.post)));
      // The date it would show if published now: its scheduled time, or today.
      const shownDate = answer.post.publishAt ?? deps.now().toISOString();
      return new Response(fillPreviewTemplate(template, answer.post, shownDate), { status: 200, headers: pageHeaders });
    }
  }
}
