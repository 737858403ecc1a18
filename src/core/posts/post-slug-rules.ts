import slugify from "@sindresorhus/slugify";
import { z } from "zod";

/** The longest slug kept: long enough for a headline, short enough for a readable link. */
export const maxSlugLength = 80;

/**
 * Single path segments under /blog that name pages, not posts: a post may not take them. (Page
 * and category lists live one level deeper, but their first segment must still stay free.)
 */
export const reservedSlugs: readonly string[] = ["page", "category", "post-not-found", "tag", "tags"];

const slugPattern = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
// All digits would read as a post id, which answers a redirect (`/blog/{id}`), never a post.
const digitsOnly = /^\d+$/;

/** What the owner may type as a slug; the form and the server check it with these messages. */
export const slugSchema = z
  .string()
  .trim()
  .max(maxSlugLength, `Slug must be ${String(maxSlugLength)} characters or less`)
  .regex(slugPattern, "Slug may contain only lowercase letters, numbers and single hyphens")
  .refine((slug) => !digitsOnly.test(slug), "Slug must contain a letter")
  .refine((slug) => !reservedSlugs.includes(slug), "This slug is reserved; please choose another");

/** Cuts a slug to `max` characters at a hyphen where there is one, never leaving one at the end. */
function shorten(slug: string, max: number): string {
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > max / 2 ? cut.slice(0, lastHyphen) : cut).replace(/-+$/, "");
}

/**
 * The slug a title suggests: transliterated to ASCII, lowercase, hyphens between words, at most
 * `maxSlugLength` characters, and always valid under `slugSchema` (a title with no letters at all
 * becomes `post`, one of digits only `post-2024`).
 */
export function slugFromTitle(title: string): string {
  const base = shorten(slugify(title, { decamelize: false }), maxSlugLength) || "post";
  if (digitsOnly.test(base) || reservedSlugs.includes(base)) return shorten(`post-${base}`, maxSlugLength);
  return base;
}

/**
 * The first of `base`, `base-2`, `base-3`… that `isTaken` says is free; the suffix never pushes
 * the slug past `maxSlugLength`.
 */
export async function firstFreeSlug(base: string, isTaken: (slugs: string[]) => Promise<Set<string>>): Promise<string> {
  for (let start = 1; ; start += 20) {
    const candidates = Array.from({ length: 20 }, (_, index) => {
      const number = start + index;
      if (number === 1) return base;
      const suffix = `-${String(number)}`;
      return `${shorten(base, maxSlugLength - suffix.length)}${suffix}`;
    });
    const taken = await isTaken(candidates);
    const free = candidates.find((slug) => !taken.has(slug));
    if (free) return free;
  }
}

/** A post's public page. */
export const postPath = (slug: string): string => `/blog/${slug}`;
