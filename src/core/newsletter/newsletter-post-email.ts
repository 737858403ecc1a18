import type { SqlExecutor } from "../db/sql-executor.ts";
import { isRowId } from "../db/row-id.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { renderNewsletterEmail } from "../mail/emails.ts";
import type { EmailContent } from "../mail/email-content.ts";
import type { Mailer } from "../mail/mailer.ts";
import type { Clock } from "../shared/clock.ts";
import type { ApiUrls } from "../shared/links.ts";
import type { Signer } from "../shared/signer.ts";
import type { Site } from "../shared/site.ts";
import { siteIdentity } from "../mail/person-mail.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import { postPath } from "../posts/post-slug-rules.ts";
import { escapeHtml } from "../shared/escape-html.ts";
import {
  placeholderPreferencesUrl,
  placeholderTopicUnsubscribe,
  placeholderUnsubscribeUrl,
  recipientReasonPlaceholder,
} from "./newsletter-message.ts";
import type { CheckPage } from "./newsletter-page-check.ts";
import { pollBlocksForEmail } from "../polls/poll-html.ts";
import { pollIdsIn, pollsById, pollTokenPlaceholder } from "../polls/polls.service.ts";

/** What the newsletter needs: the database, a mailer, the clock, and the site its links point at. */
export interface NewsletterDeps {
  db: SqlExecutor;
  mail: Mailer;
  now: Clock["now"];
  /** The same clock, for waits (the worker's lease keeper). */
  clock: Clock;
  urls: Pick<ApiUrls, "unsubscribe" | "newsletterClick" | "preferences" | "file" | "pollAnswer">;
  site: Site;
  /** Newsletter links go through the signed click redirect (CLICK_TRACKING, on unless `off`). */
  clickTracking?: boolean;
  signer: Signer;
  /**
   * Production (set by the app from its configuration): a send is refused while the footer's
   * postal address is still the seeded placeholder. Unset: locally the placeholder goes out.
   */
  production?: boolean;
  /** Whether the post's public page answers 200: every send of a post starts only then (newsletter-start.ts). */
  checkPage: CheckPage;
  /** Set once Stripe is set up (the payments' gateway): the email ends with the tip link (issue 47 point 2). */
  payments?: object | undefined;
  /** Every provider pause's length, instead of 1 minute then 2 (`pauseDelayMs`). Unset in production. */
  providerPauseMs?: number | undefined;
}

export interface PostRow {
  id: number;
  title: string;
  content: string;
  excerpt: string | null;
  /** The post's own email subject; null: the title. */
  email_subject: string | null;
  published: boolean;
  slug: string;
  /** The cover, at the top of the email as on the post's page (issue 41 point 6); null: none. */
  featured_image_key: string | null;
  featured_image_alt: string | null;
}

/** The home page's "Support this work" box (SupportBox.astro, placement "home"). */
export const supportBoxPath = "/#support-home-heading";

export const noRecipientsMessage = "There is no active subscriber to send this post to yet.";

/**
 * The newsletter email for a post, with a placeholder where each recipient's unsubscribe and
 * preferences tokens go. A send's copy (`perRecipientReason`) has one for the footer's reason too; a preview shows
 * the newsletter form's reason.
 */
export async function renderPostNewsletter(
  deps: Pick<NewsletterDeps, "db" | "site" | "urls" | "payments">,
  post: PostRow,
  options: { perRecipientReason?: boolean } = {},
): Promise<EmailContent> {
  const site = await siteIdentity(deps);
  // Each poll's answers as links, with a stand-in each recipient's copy replaces by their own signed token.
  const pollIds = pollIdsIn(post.content);
  const content =
    pollIds.length === 0
      ? post.content
      : pollBlocksForEmail(post.content, await pollsById(deps.db, pollIds), (pollId, answerIndex) =>
          deps.site.absolute(deps.urls.pollAnswer(pollId, pollTokenPlaceholder(pollId, answerIndex))),
        );
  // Made fit for email with the body (emailSafeHtml): absolute, the CDN's copy at the email's width.
  const cover = post.featured_image_key
    ? `<img src="${escapeHtml(deps.urls.file(post.featured_image_key))}" alt="${escapeHtml(post.featured_image_alt ?? "")}">`
    : "";
  return renderNewsletterEmail({
    ...site,
    title: post.title,
    subject: post.email_subject,
    excerpt: post.excerpt,
    contentHtml: cover + content,
    postUrl: deps.site.absolute(postPath(post.slug)),
    // One tip link, when payments are on and the home page shows the support box (its tip amounts are set).
    ...(deps.payments && (await siteSettingValues(deps)).tip_amounts.trim() !== "" && { supportUrl: deps.site.absolute(supportBoxPath) }),
    unsubscribeUrl: placeholderUnsubscribeUrl(deps),
    preferencesUrl: placeholderPreferencesUrl(deps),
    // A send's copy: each reader's "Unsubscribe from <topic>", filled or removed per reader (personalMessage).
    ...(options.perRecipientReason && { reason: recipientReasonPlaceholder, topicUnsubscribe: placeholderTopicUnsubscribe(deps) }),
  });
}

export async function publishedPost(deps: Pick<NewsletterDeps, "db">, postId: number): Promise<PostRow> {
  if (!isRowId(postId)) throw new NotFoundError("Post not found");
  const { rows } = await deps.db.query<PostRow>(
    "SELECT id, title, content, excerpt, email_subject, published, slug, featured_image_key, featured_image_alt FROM posts WHERE id = $1",
    [postId],
  );
  const post = rows[0];
  if (!post) throw new NotFoundError("Post not found");
  if (!post.published) throw new ValidationError("Only a published post can be sent as the newsletter");
  return post;
}
