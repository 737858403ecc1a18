import { sendClicks } from "../../core/stats/newsletter-clicks.ts";
import { previewLinks } from "../../core/newsletter/newsletter-message.ts";
import { listHealth } from "../../core/email-events/send-health.ts";
import {
  cancelSend,
  failedRecipients,
  listSends,
  publishedPost,
  renderPostNewsletter,
  resumePausedSend,
  retryFailed,
  sendStatus,
  startSend,
} from "../../core/newsletter/newsletter-sends.ts";
import { gmailClipWarning, htmlBytes } from "../../core/newsletter/newsletter-size.ts";
import { sendTestEmail } from "../../core/newsletter/newsletter-test-send.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { newsletterSendsRoutes } from "./newsletter-sends.routes.ts";

// The sending itself is done by workers (runSendWorker): `npm start` runs them on a timer; in
// production a send (and a retry) starts the Background Function at once (`kickSends`), and the
// Scheduled Function is the watchdog.
export const newsletterSendsHandlers: RouteHandlers<typeof newsletterSendsRoutes> = {
  start: async ({ body, deps }) => {
    const send = await startSend(deps, body.postId, { sendAt: body.sendAt, segment: body.segment });
    // Still preparing (a large list): the background run goes on fixing its recipients, then sends.
    if (send.status === "queued" || send.status === "preparing") deps.kickSends();
    return send;
  },
  list: ({ query, deps }) => listSends(deps, { postId: query.postId }),
  test: async ({ body, deps }) => {
    await sendTestEmail(deps, body);
    return { sent: true } as const;
  },
  preview: async ({ query, deps }) => {
    const email = await renderPostNewsletter(deps, await publishedPost(deps, query.postId));
    // Nobody's subscription: the unsubscribe link gets a token that matches no one, as in "Send test".
    const preview = previewLinks;
    const html = preview(email.html);
    const bytes = htmlBytes(html);
    return { subject: email.subject, html, text: preview(email.text), htmlBytes: bytes, clipWarning: gmailClipWarning(bytes) };
  },
  get: async ({ params, deps }) => ({ ...(await sendStatus(deps, params.id)), ...(await sendClicks(deps.db, params.id)) }),
  failed: ({ params, deps }) => failedRecipients(deps, params.id),
  retry: async ({ params, deps }) => {
    const send = await retryFailed(deps, params.id);
    deps.kickSends();
    return send;
  },
  resume: async ({ params, deps }) => {
    const send = await resumePausedSend(deps, params.id);
    deps.kickSends();
    return send;
  },
  cancel: ({ params, deps }) => cancelSend(deps, params.id),
  listHealth: ({ deps }) => listHealth(deps),
};
