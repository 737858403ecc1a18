import { isPublicFileUrl } from "../api/routes/files.routes.ts";
import { socialCardUrl } from "../core/files/image-sizes.ts";
import type { Post } from "../core/posts/post.schema.ts";
import { shareImageKey, type ShareImageInput } from "../core/share-images/share-image.ts";
import { siteName } from "./site-feeds.ts";
import type { SiteSettings } from "./build-data.ts";

/** A stored image (a post's cover, any size the owner uploaded) goes out as a card of this size, a JPEG. */
export const socialCardSize = { width: 1200, height: 630 } as const;

/** The brand's card, `public/og-default.png`, for pages without an image of their own. */
const defaultCard = { path: "/og-default.png", type: "image/png", alt: "No Filter: Wins. Fails. Funding." } as const;

/** What `og:image` and its `:width`, `:height`, `:type` and `:alt` say. */
export interface SocialImage {
  url: string;
  width: number;
  height: number;
  type: string;
  alt: string;
}

/**
 * The page's share image: a stored image as its 1200×630 JPEG card, a generated share image (a PNG of
 * that size), another image as given, or the brand's card. `alt` is the stored alt text; a decorative or undescribed image is named by the page's title.
 */
/** The folder of the generated share images (`src/pages/share/[image].png.ts`). */
const shareImageFolder = "/share/";

/** What a post's share image is drawn from. */
export function shareImageInput(post: Post): ShareImageInput {
  return { title: post.title, category: post.category, cover: post.featuredImage, focus: post.featuredImageFocus, siteName };
}

/**
 * The generated image's file name: the slug and the start of its key, so a changed post gets a new
 * address and no scraper keeps showing the old picture under it.
 */
export const shareImageName = (post: Post): string => `${post.slug}-${shareImageKey(shareImageInput(post)).slice(0, 16)}`;

/** The generated image's path. */
export const shareImagePath = (post: Post): string => `${shareImageFolder}${shareImageName(post)}.png`;

/** Whether the post shares its generated image: it has no cover, or the `share_image` setting says always. */
export const sharesGeneratedImage = (post: Post, settings: Pick<SiteSettings, "share_image">): boolean =>
  !post.featuredImage || settings.share_image === "generated";

/** The image a post's page shares (og:image) and its alt text. */
export function postShareImage(post: Post, settings: Pick<SiteSettings, "share_image">): { image: string | null; alt: string | null } {
  if (!sharesGeneratedImage(post, settings)) return { image: post.featuredImage, alt: post.featuredImageAlt };
  return { image: shareImagePath(post), alt: `${post.title}${post.category ? ` (${post.category})` : ""}: ${siteName}` };
}

export function socialImage(
  image: string | null | undefined,
  alt: string | null | undefined,
  title: string,
  absolute: (path: string) => string,
): SocialImage {
  if (!image) return { url: absolute(defaultCard.path), ...socialCardSize, type: defaultCard.type, alt: defaultCard.alt };
  if (image.startsWith(shareImageFolder)) return { url: absolute(image), ...socialCardSize, type: "image/png", alt: alt?.trim() || title };
  const url = absolute(isPublicFileUrl(image) ? socialCardUrl(image) : image);
  return { url, ...socialCardSize, type: "image/jpeg", alt: alt?.trim() || title };
}

/** `@handle` from the X (Twitter) profile setting, for `twitter:site`; undefined when it names none. */
export function twitterHandle(profileUrl: string): string | undefined {
  if (!URL.canParse(profileUrl)) return undefined;
  const url = new URL(profileUrl);
  if (!/^(www\.)?(x|twitter)\.com$/i.test(url.hostname)) return undefined;
  const handle = /^\/@?([A-Za-z0-9_]{1,15})\/?$/.exec(url.pathname)?.[1];
  return handle ? `@${handle}` : undefined;
}

/** The owner's social profiles the site shows (the footer's links): `rel="me"` and `sameAs`. */
export function socialProfiles(settings: SiteSettings): string[] {
  return [settings.youtube_url, settings.linkedin_url, settings.twitter_url, settings.instagram_url, settings.tiktok_url].filter((url) => url !== "");
}
