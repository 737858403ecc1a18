import { createElement as h } from "react";
import { EmailHeading, EmailLayout, EmailSubheading, LinkBlock, Paragraph } from "./email-layout.ts";

export interface DigestPost {
  title: string;
  excerpt: string;
  /** The post on the site, absolute. */
  url: string;
}

export interface DigestEmailProps {
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  reason: string;
  unsubscribeUrl: string;
  preferencesUrl: string;
  /** The week's posts in the reader's topics, newest first (never empty: an empty week sends nothing). */
  posts: DigestPost[];
}

/** The weekly digest: the week's posts in the reader's topics, each a title, its excerpt and a link. */
export function DigestEmail({ subject, siteName, siteUrl, mailingAddress, reason, unsubscribeUrl, preferencesUrl, posts }: DigestEmailProps) {
  return h(
    EmailLayout,
    { subject, preview: posts.map((post) => post.title).join(" · "), siteName, siteUrl, reason, mailingAddress, unsubscribeUrl, preferencesUrl },
    h(EmailHeading, null, "Your week at No Filter"),
    h(Paragraph, null, posts.length === 1 ? "One post this week in what you follow:" : `${String(posts.length)} posts this week in what you follow:`),
    ...posts.flatMap((post, index) => [
      h(EmailSubheading, { key: `t${String(index)}` }, post.title),
      post.excerpt ? h(Paragraph, { key: `e${String(index)}` }, post.excerpt) : null,
      h(LinkBlock, { key: `l${String(index)}`, href: post.url, label: "Read it on the site" }),
    ]),
  );
}
