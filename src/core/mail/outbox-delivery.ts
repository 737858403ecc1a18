import { deliverOutbox, type OutboxDeps, type OutboxKind, type OutboxOptions, type OutboxRun, type RenderQueued } from "./outbox.ts";

/**
 * The kind → renderer table: for each kind of queued mail, what makes its message at delivery. The
 * mail room declares it and the app registers it (src/app/mail-kinds.ts), as listmonk's manager
 * takes its hooks: the features that write each kind import the mail room, never the reverse. Made
 * fresh for each run, so a run renders each kind once and fills in each person's links.
 */
export type QueuedMailRenderers = Record<OutboxKind, RenderQueued>;

/** What delivering the outbox needs: the outbox's own needs, and the app's renderer table. */
export interface OutboxDeliveryDeps extends OutboxDeps {
  queuedMailRenderers: () => QueuedMailRenderers;
}

/**
 * One bounded run over the outbox with every kind's renderer: what a request starts after its
 * answer, `npm start`'s timer runs every tick and the every-minute Scheduled Function runs as the
 * safety net. Overlapping runs are safe (see `deliverOutbox`).
 */
export function deliverQueuedMail(deps: OutboxDeliveryDeps, options: OutboxOptions = {}): Promise<OutboxRun> {
  const renderers = deps.queuedMailRenderers();
  return deliverOutbox(deps, (message) => renderers[message.kind](message), options);
}
