import { createElement as h } from "react";
import { Text } from "@react-email/text";
import { ActionButton, EmailHeading, EmailLayout, Paragraph } from "./email-layout.ts";
import { colors, fonts } from "./email-theme.ts";

export interface ReaderSignInEmailProps {
  subject: string;
  siteName: string;
  siteUrl: string;
  mailingAddress: string;
  siteHost: string;
  /** The link to the "Continue" page (absolute). */
  signInUrl: string;
  /** Six digits, written together. */
  code: string;
}

/** A reader's sign-in: a link and a code, both for 15 minutes, either one spending both. */
export function ReaderSignInEmail({ subject, siteName, siteUrl, mailingAddress, siteHost, signInUrl, code }: ReaderSignInEmailProps) {
  return h(
    EmailLayout,
    {
      subject,
      preview: `Your ${siteName} sign-in code is ${code}. It works for 15 minutes.`,
      siteName,
      siteUrl,
      reason: `You (or someone using this address) asked to sign in at ${siteName} (${siteHost}).`,
      mailingAddress,
      unsubscribeUrl: null,
    },
    h(EmailHeading, null, "Sign in"),
    h(Paragraph, null, "Press the button, then Continue on the page it opens. Or type this code on the page you came from:"),
    h(Text, { style: { fontFamily: fonts.display, fontSize: "32px", letterSpacing: "6px", margin: "8px 0 16px", color: colors.ink } }, code),
    h(ActionButton, { href: signInUrl, label: "Sign in" }),
    h(Paragraph, null, "The link and the code work for 15 minutes, once: using one spends both."),
    h(Paragraph, null, "Didn't ask for this? Ignore this email: nobody gets in without it."),
  );
}
