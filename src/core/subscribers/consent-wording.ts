/**
 * The words a person is shown when they are asked to join the newsletter, kept with their consent
 * record exactly as shown. Changing a wording here changes what new records keep; old records keep
 * the words their person saw.
 */

/** Shown under every newsletter form on the site (NewsletterBox.astro). */
export const newsletterConsentWording = "One email a week. No spam. Unsubscribe any time.";

/**
 * The invitation in the download email, above its "Confirm subscription" button
 * (src/core/mail/templates/download-email.ts; a test checks the two agree).
 */
export const downloadInvitationWording =
  "One email a week with the stories and resources founders actually use. No spam. Unsubscribe any time. Confirm and you're in; skip it and this is the only email you get.";
