/** How a failed hand-over is treated: retried later, or given up with the server's reply. */
export type DeliveryFailure = { kind: "transient" | "permanent"; reason: string };

/**
 * SMTP replies 5xx are permanent (no such mailbox, rejected); 4xx replies (greylisting, mailbox
 * busy, rate limits) and errors without a reply (a dropped connection, a timeout) are transient.
 * The newsletter's workers and the outbox's read failures the same way.
 */
export function classifyDeliveryFailure(error: unknown): DeliveryFailure {
  const details = (typeof error === "object" && error !== null ? error : {}) as { responseCode?: unknown; response?: unknown; message?: unknown };
  const reason = String(details.response ?? details.message ?? error).slice(0, 500);
  const code = typeof details.responseCode === "number" ? details.responseCode : undefined;
  return { kind: code !== undefined && code >= 500 && code < 600 ? "permanent" : "transient", reason };
}

/** Waits before a transient failure is tried again: 1, 2, 4, 8… minutes, at most 30. */
export function retryDelayMs(attempts: number): number {
  return Math.min(60_000 * 2 ** Math.max(0, attempts - 1), 30 * 60_000);
}
