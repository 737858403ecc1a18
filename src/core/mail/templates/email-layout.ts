// Templates are written with createElement, not JSX: `npm start` runs the domain straight from
// TypeScript with Node's type stripping, which loads .ts files but not .tsx.
// Each component from its own package, not the "@react-email/components" barrel: the barrel also
// loads Tailwind, the code block's Prism and Markdown, about 3 s per process on the loaded CI
// machine, paid by every test file that sends an email (decision 0090).
import { Body } from "@react-email/body";
import { Button } from "@react-email/button";
import { Container } from "@react-email/container";
import { Head } from "@react-email/head";
import { Heading } from "@react-email/heading";
import { Hr } from "@react-email/hr";
import { Html } from "@react-email/html";
import { Link } from "@react-email/link";
import { Preview } from "@react-email/preview";
import { Section } from "@react-email/section";
import { Text } from "@react-email/text";
import { createElement as h, type ReactNode } from "react";
import { styles } from "./email-theme.ts";

export const tagline = "Wins. Fails. Funding. No Filter.";

/** Marks an element as HTML-only: `toPlainText` skips it (the text part already has what it says). */
const skipInText = { "data-skip-in-text": "true" };

export interface EmailLayoutProps {
  /** The subject line, as the document's `<title>` (what a client shows for a message opened in a browser tab). */
  subject: string;
  /** The line inbox lists show after the subject; hidden in the message itself. */
  preview: string;
  siteName: string;
  /** The site's address without a trailing slash. */
  siteUrl: string;
  /** Why this person got the email, in one sentence (anti-spam law and plain courtesy). */
  reason: string;
  /** The sender's postal address; its line breaks are kept. */
  mailingAddress: string;
  /** Shown as the footer's unsubscribe link; null for mail to someone who is not subscribed. */
  unsubscribeUrl: string | null;
  /** The "Choose what you get" page (a reader's topics and frequency); absent for mail to someone not subscribed. */
  preferencesUrl?: string | null | undefined;
  /** "Unsubscribe from <topic>": the topic that put this post in the reader's inbox, and its link. */
  topicUnsubscribe?: { name: string; url: string } | null | undefined;
  children?: ReactNode;
}

/** The frame of every email: the masthead, the content, and a footer that says why it came and from where. */
export function EmailLayout({
  subject,
  preview,
  siteName,
  siteUrl,
  reason,
  mailingAddress,
  unsubscribeUrl,
  preferencesUrl,
  topicUnsubscribe,
  children,
}: EmailLayoutProps) {
  return h(
    Html,
    { lang: "en", dir: "ltr" },
    // The viewport: without it a phone's client that renders the HTML as a page lays it out at a
    // desktop width and shrinks it, so the fluid column and images never get the phone's width.
    h(
      Head,
      null,
      h("meta", { name: "viewport", content: "width=device-width, initial-scale=1" }),
      h("meta", { name: "color-scheme", content: "light only" }),
      h("meta", { name: "supported-color-schemes", content: "light" }),
      h("title", null, subject),
    ),
    h(Preview, null, preview),
    h(
      Body,
      { style: styles.body },
      h(
        Container,
        { style: styles.container },
        h(
          Section,
          { style: styles.masthead },
          // The square mark is decoration: the text part starts with the wordmark.
          h("span", { style: styles.mark, "aria-hidden": "true", ...skipInText }, "NF"),
          h("span", { style: styles.wordmark }, siteName),
          h(Text, { style: styles.tagline }, tagline),
        ),
        h(Section, { style: styles.content }, children),
        h(
          Section,
          { style: styles.footer },
          h(Text, { style: styles.footerText }, reason),
          h(Text, { style: styles.footerText }, ...withLineBreaks(mailingAddress)),
          h(Text, { style: styles.footerText }, h(Link, { href: siteUrl, style: styles.footerLink }, siteUrl)),
          preferencesUrl && h(Text, { style: styles.footerText }, h(Link, { href: preferencesUrl, style: styles.footerLink }, "Choose what you get")),
          topicUnsubscribe &&
            h(
              Text,
              { style: styles.footerText },
              h(Link, { href: topicUnsubscribe.url, style: styles.footerLink }, `Unsubscribe from ${topicUnsubscribe.name}`),
            ),
          unsubscribeUrl && h(Text, { style: styles.footerText }, h(Link, { href: unsubscribeUrl, style: styles.footerLink }, "Unsubscribe")),
        ),
      ),
    ),
  );
}

/** Text lines with a <br> between them (an address typed on several lines stays on several lines). */
function withLineBreaks(value: string): ReactNode[] {
  const lines = value
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "");
  return lines.flatMap((line, index) => (index === 0 ? [line] : [h("br", { key: index }), line]));
}

export function EmailHeading({ children }: { children?: ReactNode }) {
  return h(Heading, { as: "h1", style: styles.heading }, children);
}

export function EmailSubheading({ children }: { children?: ReactNode }) {
  return h(Heading, { as: "h2", style: styles.subheading }, children);
}

export function Paragraph({ children }: { children?: ReactNode }) {
  return h(Text, { style: styles.paragraph }, children);
}

export function Divider() {
  return h(Hr, { style: styles.divider });
}

/**
 * The red button, in a block of its own so the text part shows "label URL" on its own line. The
 * address appears once: a "paste this" copy of it under the button read as a repeated link to spam
 * filters, and a client that drops buttons shows the text part, which has the address.
 */
export function ActionButton({ href, label }: { href: string; label: string }) {
  return h(Section, { style: styles.buttonBlock }, h(Button, { href, style: styles.button }, label));
}

/** A plain link in a paragraph of its own: adjacent inline links run together in the text part. */
export function LinkBlock({ href, label }: { href: string; label: string }) {
  return h(Text, { style: styles.paragraph }, h(Link, { href, style: styles.link }, label));
}
