import { readFileSync } from "node:fs";

export interface BarePost {
  slug: string;
  title: string;
  excerpt: string;
  category: string | null;
  content: string;
  publishedAt: string;
}

let posts: BarePost[] | undefined;

/** The posts the bench exported, read once per build. */
export function barePosts(): BarePost[] {
  posts ??= JSON.parse(readFileSync(process.env.BARE_POSTS_JSON ?? "", "utf8")) as BarePost[];
  return posts;
}
