/**
 * Preview pages from the real post template (docs/decisions/0035-preview-links.md). The site build
 * renders the post page (`BlogPostArticle` in `BaseLayout`, with the preview banner) once for each
 * shape a post can take — with or without a cover and an excerpt, in each category — around a
 * stand-in post whose texts are unique tokens: `/preview-template-{variant}/`. A preview is that
 * page with the tokens replaced by the draft's escaped texts, its body run through the same
 * `responsivePostHtml` and its cover's sources computed by the same `responsiveSources` as a
 * built post's. So the preview shows the draft as the template shows a post, from the template
 * the site was built with, without building the draft.
 */
import { parse } from "node-html-parser";
import { responsiveSources } from "../core/files/image-sizes.ts";
import { postCategories, type Post, type PostCategory } from "../core/posts/post.schema.ts";
import { escapeHtml } from "../core/shared/escape-html.ts";
import { altAttribute } from "../core/shared/image-alt.schema.ts";
import { categorySlug } from "./blog-pages.ts";
import { formatLongDate, readTimeLabel } from "./format-date.ts";
import { articleCover, articleSizes, responsivePostHtml } from "./responsive-post-html.ts";

/** A template is built at `/preview-template-{variant}/`. */
export const previewTemplatePath = (variant: string) => `/preview-template-${variant}/`;
/** The page an expired, revoked or unknown link shows. */
export const previewGoneVariant = "gone";

export const previewTokens = {
  title: "NfPreviewTitleToken",
  excerpt: "NfPreviewExcerptToken",
  body: "NfPreviewBodyToken",
  image: "/api/files/images/nf-preview-cover-token-1200x630.png",
  date: "2001-02-03T04:05:06.000Z",
  readTime: 59,
};

/** A template's name: `cover-excerpt-funding`, `plain-bare-none`, … */
export function previewVariant(post: Pick<Post, "featuredImage" | "excerpt" | "category">): string {
  return [post.featuredImage ? "cover" : "plain", post.excerpt ? "excerpt" : "bare", post.category ? categorySlug(post.category) : "none"].join("-");
}

/** Every template the build renders, with its stand-in post. */
export function previewTemplates(): { variant: string; post: Post }[] {
  const categories: (PostCategory | null)[] = [...postCategories, null];
  return [true, false].flatMap((cover) =>
    [true, false].flatMap((excerpt) =>
      categories.map((category) => {
        const post = templatePost({ cover, excerpt, category });
        return { variant: previewVariant(post), post };
      }),
    ),
  );
}

function templatePost({ cover, excerpt, category }: { cover: boolean; excerpt: boolean; category: PostCategory | null }): Post {
  return {
    id: 0,
    title: previewTokens.title,
    content: `<p>${previewTokens.body}</p>`,
    excerpt: excerpt ? previewTokens.excerpt : null,
    emailSubject: null,
    category,
    readTime: previewTokens.readTime,
    published: false,
    publishedAt: null,
    createdAt: previewTokens.date,
    updatedAt: previewTokens.date,
    featuredImage: cover ? previewTokens.image : null,
    featuredImageAlt: null,
    // The preview shows the cover whole (the post's header), so no crop needs the point.
    featuredImageFocus: null,
    slug: "preview",
    url: "/preview",
    publishAt: null,
    tags: [],
    sendAsNewsletter: false,
    commentsClosed: false,
    commentCount: 0,
    fediverse: { likes: 0, boosts: 0, replies: 0 },
  };
}

/** The Share island's props as the template serialized them (`Island.astro`: JSON in an attribute). */
const shareProps = (title: string, excerpt: string | null) => escapeHtml(JSON.stringify({ title, excerpt: excerpt ?? "" }));

/**
 * The template page filled with `post`. `shownDate` is the date the post would show if published
 * now (its scheduled time, or the moment of viewing).
 */
export function fillPreviewTemplate(template: string, post: Post, shownDate: string): string {
  let html = template
    .replaceAll(shareProps(previewTokens.title, previewTokens.excerpt), shareProps(post.title, post.excerpt))
    .replaceAll(shareProps(previewTokens.title, null), shareProps(post.title, post.excerpt))
    .replaceAll(`<p>${previewTokens.body}</p>`, () => responsivePostHtml(post.content, articleSizes))
    .replaceAll(previewTokens.title, () => escapeHtml(post.title))
    .replaceAll(previewTokens.excerpt, () => escapeHtml(post.excerpt ?? ""))
    .replaceAll(`datetime="${previewTokens.date}"`, `datetime="${escapeHtml(shownDate)}"`)
    .replaceAll(`>${formatLongDate(previewTokens.date)}<`, `>${escapeHtml(formatLongDate(shownDate))}<`)
    .replaceAll(readTimeLabel(previewTokens.readTime), readTimeLabel(post.readTime));
  if (post.featuredImage) html = withCover(html, post.featuredImage, post.featuredImageAlt);
  return html;
}

/** The cover's sources for the draft's image, as `ResponsiveImage` computes them for a post. */
function withCover(html: string, image: string, alt: string | null): string {
  const root = parse(html, { comment: true });
  const picture = root.querySelector("[data-post-cover] picture");
  if (!picture) return html;
  const sources = responsiveSources(image, articleCover.layoutWidth);
  picture.querySelector("source")?.setAttribute("srcset", sources.srcset);
  const img = picture.querySelector("img");
  img?.setAttribute("src", sources.src);
  img?.setAttribute("alt", altAttribute(alt));
  if (sources.width !== undefined) img?.setAttribute("width", String(sources.width));
  if (sources.height !== undefined) img?.setAttribute("height", String(sources.height));
  return root.toString();
}
