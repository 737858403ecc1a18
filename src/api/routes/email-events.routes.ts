import { emailEventsParams } from "../../core/email-events/email-events.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer } from "../declare-route.ts";

/** Bounces and complaints, posted by the mail provider (docs/email.md says where to add each webhook). */
export const emailEventsRoutes = {
  receive: declareRoute({
    method: "POST",
    path: apiPaths.emailEvents,
    access: "public",
    summary:
      "A mail provider's bounce, complaint or delivery events (postmark, resend, mailgun, sendgrid, ses), checked by the provider's own signature before anything changes: 401 for a bad, missing or older than 5 minutes one (SES: any age, as SNS retries with the first signature), 404 for a provider whose secret is not set, 413 over 1 MB; a repeated event counts once",
    params: emailEventsParams,
    // Signed by the provider instead: it posts from its servers, with no Origin and no cookie.
    crossSite: "token",
    answers: { 204: emptyAnswer("Heard (or a repeat, which changes nothing)") },
    errors: [401, 413],
  }),
};
