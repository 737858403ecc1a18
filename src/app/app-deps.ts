import type { ServerEnv } from "../config/server-env.ts";
import type { LoginDeps } from "../core/auth/login.ts";
import type { PasskeyDeps } from "../core/auth/passkeys.ts";
import type { DownloadsDeps } from "../core/downloads/downloads.service.ts";
import type { EmailEventsDeps } from "../core/email-events/email-events.service.ts";
import type { ImportRunDeps } from "../core/imports/import-runs.ts";
import type { BackupRunDeps } from "../core/backups/backup-runs.ts";
import type { KickSends } from "../core/newsletter/newsletter-background.ts";
import type { NewsletterDeps } from "../core/newsletter/newsletter-sends.ts";
import type { PostsDeps } from "../core/posts/posts.service.ts";
import type { SetupDeps } from "../core/setup/setup-checklist.ts";
import type { PreviewLinksDeps } from "../core/posts/preview-links.service.ts";
import type { Clock } from "../core/shared/clock.ts";
import type { MailDeps } from "../core/mail/person-mail.ts";
import type { OutboxDeliveryDeps } from "../core/mail/outbox-delivery.ts";
import type { StatsDeps } from "../core/stats/stats.service.ts";
import type { WebhooksDeps } from "../core/webhooks/webhooks.service.ts";
import type { PaymentsDeps } from "../core/payments/payments.service.ts";
import type { WebsubDeps } from "../core/publishing/websub.ts";
import type { FediverseDeliveryDeps } from "../core/fediverse/fediverse-delivery.ts";

/**
 * Everything the app's features need, put together once by `createApp` (create-app.ts): the sum of
 * each feature's own needs (declared next to the feature in src/core), plus what only the API and
 * the entry points read. A handler passes it whole; a service sees only its own small type.
 */
export type AppDeps = PostsDeps &
  DownloadsDeps &
  MailDeps &
  NewsletterDeps &
  PasskeyDeps &
  LoginDeps &
  SetupDeps &
  PreviewLinksDeps &
  EmailEventsDeps &
  ImportRunDeps &
  BackupRunDeps &
  StatsDeps &
  WebhooksDeps &
  Pick<PaymentsDeps, "payments"> &
  Pick<WebsubDeps, "websubDefaultHub"> &
  Pick<FediverseDeliveryDeps, "sendFediverseActivity"> &
  Pick<OutboxDeliveryDeps, "queuedMailRenderers" | "onUnknownRecipient"> & {
    /** The checked configuration: for the API's same-origin check and the entry points, never for src/core. */
    env: ServerEnv;
    /** The clock every part reads and waits on (`now` is its reading half). */
    clock: Clock;
    /**
     * Starts a newsletter run now, without waiting (production: the Background Function). Does
     * nothing in tests and under `npm start`, whose in-process timer runs the sends.
     */
    kickSends: KickSends;
  };
