import { apiKeysHandlers } from "./routes/api-keys.handlers.ts";
import { apiKeysRoutes } from "./routes/api-keys.routes.ts";
import { buildOpenApiDocument } from "./openapi.ts";
import type { ServedRoute } from "./route-handler.ts";
import { serve } from "./route-handler.ts";
import { sessionCookieName } from "./session-cookie.ts";
import { authHandlers } from "./routes/auth.handlers.ts";
import { authRoutes } from "./routes/auth.routes.ts";
import { blogPostsHandlers } from "./routes/blog-posts.handlers.ts";
import { blogPostsRoutes } from "./routes/blog-posts.routes.ts";
import { tagsHandlers } from "./routes/tags.handlers.ts";
import { tagsRoutes } from "./routes/tags.routes.ts";
import { emailEventsHandlers } from "./routes/email-events.handlers.ts";
import { emailEventsRoutes } from "./routes/email-events.routes.ts";
import { downloadsHandlers } from "./routes/downloads.handlers.ts";
import { downloadsRoutes } from "./routes/downloads.routes.ts";
import { filesHandlers } from "./routes/files.handlers.ts";
import { filesRoutes } from "./routes/files.routes.ts";
import { healthHandlers } from "./routes/health.handlers.ts";
import { healthRoutes } from "./routes/health.routes.ts";
import { mailHandlers } from "./routes/mail.handlers.ts";
import { mailRoutes } from "./routes/mail.routes.ts";
import { newsletterSendsHandlers } from "./routes/newsletter-sends.handlers.ts";
import { newsletterSendsRoutes } from "./routes/newsletter-sends.routes.ts";
import { segmentsHandlers } from "./routes/segments.handlers.ts";
import { segmentsRoutes } from "./routes/segments.routes.ts";
import { pollsHandlers } from "./routes/polls.handlers.ts";
import { pollsRoutes } from "./routes/polls.routes.ts";
import { newsletterHandlers } from "./routes/newsletter.handlers.ts";
import { newsletterRoutes } from "./routes/newsletter.routes.ts";
import { passkeysHandlers } from "./routes/passkeys.handlers.ts";
import { passkeysRoutes } from "./routes/passkeys.routes.ts";
import { setupHandlers } from "./routes/setup.handlers.ts";
import { setupRoutes } from "./routes/setup.routes.ts";
import { previewLinksHandlers } from "./routes/preview-links.handlers.ts";
import { previewLinksRoutes } from "./routes/preview-links.routes.ts";
import { siteBuildHandlers } from "./routes/site-build.handlers.ts";
import { siteBuildRoutes } from "./routes/site-build.routes.ts";
import { siteSettingsHandlers } from "./routes/site-settings.handlers.ts";
import { siteSettingsRoutes } from "./routes/site-settings.routes.ts";
import { preferencesHandlers } from "./routes/preferences.handlers.ts";
import { preferencesRoutes } from "./routes/preferences.routes.ts";
import { subscriptionsHandlers } from "./routes/subscriptions.handlers.ts";
import { subscriptionsRoutes } from "./routes/subscriptions.routes.ts";
import { importsHandlers } from "./routes/imports.handlers.ts";
import { importsRoutes } from "./routes/imports.routes.ts";
import { backupsHandlers } from "./routes/backups.handlers.ts";
import { backupsRoutes } from "./routes/backups.routes.ts";
import { uploadsHandlers } from "./routes/uploads.handlers.ts";
import { uploadsRoutes } from "./routes/uploads.routes.ts";
import { statsHandlers } from "./routes/stats.handlers.ts";
import { statsRoutes } from "./routes/stats.routes.ts";
import { sequencesHandlers } from "./routes/sequences.handlers.ts";
import { sequencesRoutes } from "./routes/sequences.routes.ts";
import { webhooksHandlers } from "./routes/webhooks.handlers.ts";
import { webhooksRoutes } from "./routes/webhooks.routes.ts";
import { paymentsHandlers } from "./routes/payments.handlers.ts";
import { paymentsRoutes } from "./routes/payments.routes.ts";
import { readersHandlers } from "./routes/readers.handlers.ts";
import { readersRoutes } from "./routes/readers.routes.ts";
import { commentsHandlers } from "./routes/comments.handlers.ts";
import { commentsRoutes } from "./routes/comments.routes.ts";
import { fediverseHandlers } from "./routes/fediverse.handlers.ts";
import { fediverseRoutes } from "./routes/fediverse.routes.ts";

/** Every route declaration, by resource: the API's whole contract. */
export const apiContract = {
  health: healthRoutes,
  auth: authRoutes,
  passkeys: passkeysRoutes,
  blogPosts: blogPostsRoutes,
  tags: tagsRoutes,
  downloads: downloadsRoutes,
  files: filesRoutes,
  siteSettings: siteSettingsRoutes,
  siteBuild: siteBuildRoutes,
  setup: setupRoutes,
  newsletter: newsletterRoutes,
  newsletterSends: newsletterSendsRoutes,
  segments: segmentsRoutes,
  polls: pollsRoutes,
  mail: mailRoutes,
  subscriptions: subscriptionsRoutes,
  preferences: preferencesRoutes,
  previewLinks: previewLinksRoutes,
  emailEvents: emailEventsRoutes,
  imports: importsRoutes,
  backups: backupsRoutes,
  uploads: uploadsRoutes,
  stats: statsRoutes,
  sequences: sequencesRoutes,
  apiKeys: apiKeysRoutes,
  webhooks: webhooksRoutes,
  payments: paymentsRoutes,
  readers: readersRoutes,
  comments: commentsRoutes,
  fediverse: fediverseRoutes,
};

/** Built once per session cookie name: `nf_session` on plain http (localhost), `__Host-nf_session` over https. */
const openApiDocuments = new Map<string, Record<string, unknown>>();

function openApiDocument(request: Request): Record<string, unknown> {
  const name = sessionCookieName(request);
  let document = openApiDocuments.get(name);
  if (!document) openApiDocuments.set(name, (document = buildOpenApiDocument(apiContract, name)));
  return document;
}

/** Every API route with its handler, wired in one place. */
export const apiRoutes: ServedRoute[] = [
  ...serve(healthRoutes, healthHandlers(openApiDocument)),
  ...serve(authRoutes, authHandlers),
  ...serve(passkeysRoutes, passkeysHandlers),
  ...serve(blogPostsRoutes, blogPostsHandlers),
  ...serve(tagsRoutes, tagsHandlers),
  ...serve(downloadsRoutes, downloadsHandlers),
  ...serve(filesRoutes, filesHandlers),
  ...serve(siteSettingsRoutes, siteSettingsHandlers),
  ...serve(siteBuildRoutes, siteBuildHandlers),
  ...serve(setupRoutes, setupHandlers),
  ...serve(newsletterRoutes, newsletterHandlers),
  ...serve(newsletterSendsRoutes, newsletterSendsHandlers),
  ...serve(segmentsRoutes, segmentsHandlers),
  ...serve(pollsRoutes, pollsHandlers),
  ...serve(mailRoutes, mailHandlers),
  ...serve(subscriptionsRoutes, subscriptionsHandlers),
  ...serve(preferencesRoutes, preferencesHandlers),
  ...serve(previewLinksRoutes, previewLinksHandlers),
  ...serve(emailEventsRoutes, emailEventsHandlers),
  ...serve(importsRoutes, importsHandlers),
  ...serve(backupsRoutes, backupsHandlers),
  ...serve(uploadsRoutes, uploadsHandlers),
  ...serve(statsRoutes, statsHandlers),
  ...serve(sequencesRoutes, sequencesHandlers),
  ...serve(apiKeysRoutes, apiKeysHandlers),
  ...serve(webhooksRoutes, webhooksHandlers),
  ...serve(paymentsRoutes, paymentsHandlers),
  ...serve(readersRoutes, readersHandlers),
  ...serve(commentsRoutes, commentsHandlers),
  ...serve(fediverseRoutes, fediverseHandlers),
];
