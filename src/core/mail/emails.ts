import { createElement as h, type ReactElement } from "react";
import type { EmailContent } from "./email-content.ts";
import { emailSafeHtml } from "./email-safe-html.ts";

export type { EmailContent } from "./email-content.ts";

let loading: Promise<typeof import("./templates/templates.ts")> | undefined;
/**
 * React Email takes ~0.3 s to load (its components barrel): loaded on the first render, so importing
 * this module costs nothing to a process, or an API call, that sends no mail.
 */
const templates = () => (loading ??= import("./templates/templates.ts"));

/** What every email needs to know about the sender. */
interface SiteIdentity {
  /** The site's name, e.g. "No Filter": the wordmark, subjects and footers. */
  siteName: string;
  /** The site's public address (`SITE_URL`); a trailing slash is fine. */
  siteUrl: string;
  /** The `mailing_address` setting: the postal address every footer shows, line breaks kept. */
  mailingAddress: string;
}

/** The double opt-in email. It carries no unsubscribe link: the person is not subscribed yet. */
export async function renderConfirmationEmail(input: SiteIdentity & { confirmUrl: string }): Promise<EmailContent> {
  const site = siteParts(input);
  const confirmUrl = absoluteUrl("confirmUrl", input.confirmUrl);
  const { ConfirmationEmail } = await templates();
  const subject = oneLine(`Confirm your subscription to ${site.siteName}`);
  return renderEmail(subject, h(ConfirmationEmail, { ...site, subject, confirmUrl }));
}

/** Sent when a subscription is confirmed: what to expect and where to start reading. */
export async function renderWelcomeEmail(input: SiteIdentity & { unsubscribeUrl: string; preferencesUrl?: string }): Promise<EmailContent> {
  const site = siteParts(input);
  const unsubscribeUrl = absoluteUrl("unsubscribeUrl", input.unsubscribeUrl);
  const preferencesUrl = input.preferencesUrl === undefined ? undefined : absoluteUrl("preferencesUrl", input.preferencesUrl);
  const { WelcomeEmail } = await templates();
  const subject = oneLine(`You're in: welcome to ${site.siteName}`);
  return renderEmail(subject, h(WelcomeEmail, { ...site, subject, unsubscribeUrl, preferencesUrl }));
}

/**
 * The link to a requested resource (`downloadUrl`, absolute, valid 24 hours). With a `confirmUrl`
 * it also invites the person to confirm the newsletter; pass null when they are subscribed already.
 * `unsubscribeUrl` is null for someone who never subscribed.
 */
export async function renderDownloadEmail(
  input: SiteIdentity & { resourceTitle: string; downloadUrl: string; confirmUrl: string | null; unsubscribeUrl: string | null },
): Promise<EmailContent> {
  const site = siteParts(input);
  const resourceTitle = oneLine(input.resourceTitle);
  const urls = {
    downloadUrl: absoluteUrl("downloadUrl", input.downloadUrl),
    confirmUrl: input.confirmUrl === null ? null : absoluteUrl("confirmUrl", input.confirmUrl),
    unsubscribeUrl: input.unsubscribeUrl === null ? null : absoluteUrl("unsubscribeUrl", input.unsubscribeUrl),
  };
  const { DownloadEmail } = await templates();
  const subject = oneLine(`Your download: ${resourceTitle}`);
  return renderEmail(subject, h(DownloadEmail, { ...site, subject, resourceTitle, ...urls }));
}

/**
 * The newsletter footer's "why you got this", true to how the person joined (`subscribers.source`):
 * the form, a download's invitation, or the owner's import. "You subscribed" would be untrue for
 * an imported address. An unknown source reads as the form's.
 */
export function newsletterReason(source: string | null, input: Pick<SiteIdentity, "siteName" | "siteUrl">): string {
  const { siteName, siteHost } = siteParts({ ...input, mailingAddress: "" });
  if (source === "download") return `You confirmed the ${siteName} newsletter when you asked for a free resource at ${siteHost}.`;
  if (source === "import") return `You agreed to receive the ${siteName} newsletter, and its owner added your address to the list at ${siteHost}.`;
  return `You subscribed to the ${siteName} newsletter at ${siteHost}.`;
}

/**
 * A published post as the newsletter: subject = the post's email subject, else its title; preheader = the excerpt, the post's
 * sanitized HTML made email-safe, and a "Read it on the site" button to `postUrl` (absolute). The
 * footer's `reason` defaults to the form's (`newsletterReason`); a send renders a placeholder there
 * instead and puts each recipient's own in.
 */
export async function renderNewsletterEmail(
  input: SiteIdentity & {
    title: string;
    subject?: string | null | undefined;
    excerpt: string | null;
    contentHtml: string;
    postUrl: string;
    unsubscribeUrl: string;
    /** The "Choose what you get" page (absolute). */
    preferencesUrl?: string;
    /** "Unsubscribe from <topic>" (a send renders placeholders here, filled or removed per reader). */
    topicUnsubscribe?: { name: string; url: string };
    reason?: string;
    /** The support box (absolute), when payments are on: one "Support this work" link after the post. */
    supportUrl?: string;
  },
): Promise<EmailContent> {
  const site = siteParts(input);
  const reason = input.reason ?? newsletterReason("newsletter", input);
  const title = oneLine(input.title);
  const postUrl = absoluteUrl("postUrl", input.postUrl);
  const unsubscribeUrl = absoluteUrl("unsubscribeUrl", input.unsubscribeUrl);
  const preview = oneLine(input.excerpt ?? "") || title;
  const contentHtml = emailSafeHtml(input.contentHtml, site.siteUrl);
  const { NewsletterEmail } = await templates();
  const subject = oneLine(input.subject ?? "") || title;
  const preferencesUrl = input.preferencesUrl === undefined ? undefined : absoluteUrl("preferencesUrl", input.preferencesUrl);
  const topicUnsubscribe = input.topicUnsubscribe && {
    name: oneLine(input.topicUnsubscribe.name),
    url: absoluteUrl("topicUnsubscribe", input.topicUnsubscribe.url),
  };
  return renderEmail(
    subject,
    h(NewsletterEmail, {
      ...site,
      subject,
      title,
      preview,
      contentHtml,
      postUrl,
      unsubscribeUrl,
      preferencesUrl,
      topicUnsubscribe,
      reason,
      supportUrl: input.supportUrl === undefined ? undefined : absoluteUrl("supportUrl", input.supportUrl),
    }),
  );
}

/**
 * The weekly digest (issue 42 point 2): the week's posts in the reader's topics (absolute URLs),
 * with the newsletter's footer: why they get it, "Choose what you get" and unsubscribe.
 */
export async function renderDigestEmail(
  input: SiteIdentity & {
    posts: { title: string; excerpt: string | null; url: string }[];
    reason: string;
    unsubscribeUrl: string;
    preferencesUrl: string;
  },
): Promise<EmailContent> {
  const site = siteParts(input);
  const posts = input.posts.map((post) => ({
    title: oneLine(post.title),
    excerpt: oneLine(post.excerpt ?? ""),
    url: absoluteUrl("post url", post.url),
  }));
  const { DigestEmail } = await templates();
  const subject = oneLine(
    `This week at ${site.siteName}: ${posts[0]?.title ?? ""}${posts.length > 1 ? ` and ${String(posts.length - 1)} more` : ""}`,
  );
  return renderEmail(
    subject,
    h(DigestEmail, {
      ...site,
      subject,
      reason: input.reason,
      unsubscribeUrl: absoluteUrl("unsubscribeUrl", input.unsubscribeUrl),
      preferencesUrl: absoluteUrl("preferencesUrl", input.preferencesUrl),
      posts,
    }),
  );
}

/** To the owner: an outgoing webhook endpoint failed for 3 days and was switched off (`dashboardUrl` absolute). */
export async function renderWebhookDisabledEmail(
  input: SiteIdentity & { endpointUrl: string; reason: string; dashboardUrl: string },
): Promise<EmailContent> {
  const site = siteParts(input);
  const dashboardUrl = absoluteUrl("dashboardUrl", input.dashboardUrl);
  const { WebhookDisabledEmail } = await templates();
  const subject = oneLine(`${site.siteName}: a webhook endpoint was switched off`);
  return renderEmail(
    subject,
    h(WebhookDisabledEmail, { ...site, subject, endpointUrl: oneLine(input.endpointUrl), reason: oneLine(input.reason), dashboardUrl }),
  );
}

/** To a buyer or tipper: the receipt, with a paid resource's download link (absolute) when there is one. */
export async function renderReceiptEmail(
  input: SiteIdentity & { amount: string; itemTitle: string; downloadUrl: string | null; linkLifetime: string; manageUrl?: string | null },
): Promise<EmailContent> {
  const site = siteParts(input);
  const downloadUrl = input.downloadUrl === null ? null : absoluteUrl("downloadUrl", input.downloadUrl);
  const manageUrl = input.manageUrl ? absoluteUrl("manageUrl", input.manageUrl) : null;
  const { ReceiptEmail } = await templates();
  const subject = oneLine(`Your receipt from ${site.siteName}`);
  return renderEmail(
    subject,
    h(ReceiptEmail, {
      ...site,
      subject,
      amount: oneLine(input.amount),
      itemTitle: oneLine(input.itemTitle),
      downloadUrl,
      linkLifetime: input.linkLifetime,
      manageUrl,
    }),
  );
}

/** A reader's sign-in: the "Continue" page's link (absolute) and the 6-digit code, both for 15 minutes. */
export async function renderReaderSignInEmail(input: SiteIdentity & { signInUrl: string; code: string }): Promise<EmailContent> {
  const site = siteParts(input);
  const signInUrl = absoluteUrl("signInUrl", input.signInUrl);
  const { ReaderSignInEmail } = await templates();
  const subject = oneLine(`Your ${site.siteName} sign-in code: ${input.code}`);
  return renderEmail(subject, h(ReaderSignInEmail, { ...site, subject, signInUrl, code: input.code }));
}

/** To the owner: comments wait for approval (a list, at most one email an hour). */
export async function renderCommentsWaitingEmail(
  input: SiteIdentity & { waiting: { author: string; postTitle: string; excerpt: string }[]; total: number; queueUrl: string },
): Promise<EmailContent> {
  const site = siteParts(input);
  const queueUrl = absoluteUrl("queueUrl", input.queueUrl);
  const { CommentsWaitingEmail } = await templates();
  const subject = oneLine(`${site.siteName}: ${input.total === 1 ? "a comment is" : `${String(input.total)} comments are`} waiting for approval`);
  const waiting = input.waiting.map((comment) => ({
    author: oneLine(comment.author),
    postTitle: oneLine(comment.postTitle),
    excerpt: oneLine(comment.excerpt),
  }));
  return renderEmail(subject, h(CommentsWaitingEmail, { ...site, subject, waiting, total: input.total, queueUrl }));
}

/** To a reader: a reply to their comment, with a link to it and a one-click way to stop these emails. */
export async function renderCommentReplyEmail(
  input: SiteIdentity & { replier: string; postTitle: string; excerpt: string; commentUrl: string; unsubscribeUrl: string },
): Promise<EmailContent> {
  const site = siteParts(input);
  const commentUrl = absoluteUrl("commentUrl", input.commentUrl);
  const unsubscribeUrl = absoluteUrl("unsubscribeUrl", input.unsubscribeUrl);
  const { CommentReplyEmail } = await templates();
  const replier = oneLine(input.replier);
  const subject = oneLine(`${replier} replied to your comment on ${site.siteName}`);
  return renderEmail(
    subject,
    h(CommentReplyEmail, { ...site, subject, replier, postTitle: oneLine(input.postTitle), excerpt: input.excerpt, commentUrl, unsubscribeUrl }),
  );
}

async function renderEmail(subject: string, email: ReactElement): Promise<EmailContent> {
  const { renderParts } = await templates();
  return { subject: oneLine(subject), ...(await renderParts(email)) };
}

function siteParts({ siteName, siteUrl, mailingAddress }: SiteIdentity) {
  const base = absoluteUrl("siteUrl", siteUrl).replace(/\/+$/, "");
  return { siteName: oneLine(siteName), siteUrl: base, siteHost: new URL(base).host, mailingAddress };
}

/**
 * A link in an email is opened far from the site: a path such as `/api/downloads/…` leads nowhere.
 * Returns the URL as given; throws for anything but an absolute http(s) URL (a caller's mistake).
 */
function absoluteUrl(name: string, value: string): string {
  if (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol)) {
    throw new TypeError(`${name} must be an absolute http:// or https:// URL (got "${value}"): links in an email are opened away from the site.`);
  }
  return value;
}

/** Headers and headings are one line: a title pasted with a line break must not split a subject. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}
