/**
 * Every API path, once. The route declarations (`routes/*.routes.ts`) state their path from here,
 * and the public islands build their calls from here too: this module holds no schema, so a
 * visitor's page gets a few strings, not the validation library.
 */
export const apiPaths = {
  health: "/api/health",
  openApi: "/api/openapi.json",
  login: "/api/auth/login",
  logout: "/api/auth/logout",
  session: "/api/auth/session",
  reauthenticate: "/api/auth/reauthenticate",
  recoveryCodeLogin: "/api/auth/login/recovery-code",
  passkeyLoginOptions: "/api/auth/passkeys/login/options",
  passkeyLogin: "/api/auth/passkeys/login/verify",
  passkeyRegistrationOptions: "/api/auth/passkeys/registration/options",
  passkeyRegistration: "/api/auth/passkeys/registration/verify",
  passkey: "/api/auth/passkeys/:id",
  security: "/api/auth/security",
  password: "/api/auth/password",
  passkeyRequirement: "/api/auth/passkey-requirement",
  recoveryCodes: "/api/auth/recovery-codes",
  blogPosts: "/api/blog-posts",
  blogPostImage: "/api/blog-posts/upload-image",
  blogPost: "/api/blog-posts/:id",
  tags: "/api/tags",
  tag: "/api/tags/:slug",
  downloads: "/api/downloads",
  download: "/api/downloads/:id",
  downloadRequest: "/api/downloads/:id/request",
  downloadFile: "/api/downloads/:id/file",
  image: "/api/files/images/:name",
  siteSettings: "/api/site-settings",
  siteBuild: "/api/site-build",
  setupChecklist: "/api/setup-checklist",
  setupDemoContent: "/api/setup/remove-demo-content",
  siteSetting: "/api/site-settings/:key",
  siteSettingHidden: "/api/site-settings/:key/hidden",
  subscribe: "/api/newsletter/subscribe",
  confirmSubscription: "/api/newsletter/confirm",
  unsubscribe: "/api/newsletter/unsubscribe",
  subscribers: "/api/newsletter/subscribers",
  subscriberCounts: "/api/newsletter/subscribers/counts",
  subscribersExport: "/api/newsletter/subscribers/export",
  subscribersImport: "/api/newsletter/subscribers/import",
  subscriber: "/api/newsletter/subscribers/:id",
  subscriberExport: "/api/newsletter/subscribers/:id/export",
  newsletterSends: "/api/newsletter/sends",
  newsletterTestSend: "/api/newsletter/sends/test",
  newsletterSendPreview: "/api/newsletter/sends/preview",
  newsletterSend: "/api/newsletter/sends/:id",
  newsletterSendFailed: "/api/newsletter/sends/:id/failed",
  newsletterSendRetry: "/api/newsletter/sends/:id/retry",
  mailOutbox: "/api/mail/outbox",
  mailOutboxRetry: "/api/mail/outbox/retry",
  blogPostPreviewLinks: "/api/blog-posts/:id/preview-links",
  previewLink: "/api/preview-links/:id",
  emailEvents: "/api/email-events/:provider",
  newsletterSendResume: "/api/newsletter/sends/:id/resume",
  newsletterSendCancel: "/api/newsletter/sends/:id/cancel",
  newsletterListHealth: "/api/newsletter/list-health",
  imports: "/api/imports",
  importRun: "/api/imports/:id",
  backups: "/api/backups",
  backupDownload: "/api/backups/:id/download",
  restores: "/api/backups/restore",
  restoreRun: "/api/backups/restore/:id",
  uploads: "/api/uploads",
  uploadPart: "/api/uploads/:uploadId/:part",
  uploadComplete: "/api/uploads/:uploadId/complete",
  events: "/api/events",
  stats: "/api/stats",
  newsletterClick: "/api/newsletter/click",
  sequences: "/api/sequences",
  sequence: "/api/sequences/:key",
  sequenceStats: "/api/sequences/:key/stats",
  apiKeys: "/api/keys",
  apiKey: "/api/keys/:id",
  webhooks: "/api/webhooks",
  webhook: "/api/webhooks/:id",
  webhookTest: "/api/webhooks/:id/test",
  webhookRotateSecret: "/api/webhooks/:id/rotate-secret",
  webhookDeliveries: "/api/webhooks/:id/deliveries",
  webhookRedeliver: "/api/webhooks/:id/deliveries/redeliver",
  readerSignIn: "/api/readers/sign-in",
  readerSignInVerify: "/api/readers/sign-in/verify",
  readerSignOut: "/api/readers/sign-out",
  readerMe: "/api/readers/me",
  readerMeExport: "/api/readers/me/export",
  readerSessionsEnd: "/api/readers/:id/sign-out",
} as const;

type ParamNames<Path extends string> = Path extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<`/${Rest}`>
  : Path extends `${string}:${infer Name}`
    ? Name
    : never;

/** The values a path's `:name` segments take. */
export type PathParams<Path extends string> = { [Name in ParamNames<Path>]: string | number };

/** A path with its `:name` segments filled in (each value URL-encoded). */
export function pathWith<Path extends string>(path: Path, params: PathParams<Path>): string {
  const values = params as Record<string, string | number>;
  return path.replace(/:([A-Za-z]+)/g, (_, name: string) => encodeURIComponent(String(values[name])));
}
