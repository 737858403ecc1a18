import { createElement as h } from "react";
import { EmailHeading, EmailLayout, LinkBlock, Paragraph } from "./email-layout.ts";

interface SiteProps {
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
}

export interface CommentsWaitingEmailProps extends SiteProps {
  /** Every comment waiting, newest first (at most the first 20 shown). */
  waiting: { author: string; postTitle: string; excerpt: string }[];
  total: number;
  queueUrl: string;
}

/** To the owner, at most once an hour: comments wait for approval. */
export function CommentsWaitingEmail({ subject, siteName, siteUrl, mailingAddress, waiting, total, queueUrl }: CommentsWaitingEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: `${String(total)} waiting for your approval.`,
      siteName,
      siteUrl,
      reason: `You run ${siteName}, and nothing a reader writes is shown before the rules or you allow it.`,
      mailingAddress,
      unsubscribeUrl: null,
    },
    h(EmailHeading, null, total === 1 ? "A comment is waiting" : `${String(total)} comments are waiting`),
    ...waiting.map((comment) => h(Paragraph, null, `${comment.author} on “${comment.postTitle}”: ${comment.excerpt}`)),
    total > waiting.length ? h(Paragraph, null, `…and ${String(total - waiting.length)} more.`) : null,
    h(LinkBlock, { href: queueUrl, label: "Open the comments queue" }),
  );
}

export interface CommentReplyEmailProps extends SiteProps {
  replier: string;
  postTitle: string;
  excerpt: string;
  commentUrl: string;
  /** Stops these emails (and the RFC 8058 one-click header's address). */
  unsubscribeUrl: string;
}

/** To a reader: someone replied to their comment. */
export function CommentReplyEmail({
  subject,
  siteName,
  siteUrl,
  mailingAddress,
  replier,
  postTitle,
  excerpt,
  commentUrl,
  unsubscribeUrl,
}: CommentReplyEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: excerpt,
      siteName,
      siteUrl,
      reason: `You commented on ${siteName} and asked to hear about replies. The unsubscribe link stops these reply emails only.`,
      mailingAddress,
      unsubscribeUrl,
    },
    h(EmailHeading, null, `${replier} replied to your comment`),
    h(Paragraph, null, `On “${postTitle}”:`),
    h(Paragraph, null, excerpt),
    h(LinkBlock, { href: commentUrl, label: "Read the reply" }),
  );
}
