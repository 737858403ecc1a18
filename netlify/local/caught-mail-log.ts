import type { CaughtMailSummary } from "./mail-catcher.ts";

export interface CaughtMailLogOptions {
  log: (line: string) => void;
  /** The local inbox page; a message's page is `<inboxUrl>/<id>`. */
  inboxUrl: string;
  /** Messages printed one by one in a window before the rest are only counted. Default 5. */
  perWindow?: number;
  /** How long a window lasts from its first message. Default 5 s. */
  windowMs?: number;
}

/**
 * What `npm start` prints for caught mail: each message with its link in the inbox, so a signup's
 * confirmation is one click away; but a burst (a newsletter sent to a local list) would bury the
 * admin URL under thousands of lines, so past `perWindow` messages a window ends with one line
 * counting the rest, and while the burst lasts only those counts are printed.
 */
export function caughtMailLog(options: CaughtMailLogOptions): { onMessage: (mail: CaughtMailSummary) => void; stop: () => void } {
  const perWindow = options.perWindow ?? 5;
  const windowMs = options.windowMs ?? 5000;
  let timer: NodeJS.Timeout | undefined;
  let shown = 0;
  let counted = 0;
  let newest: CaughtMailSummary | undefined;
  let bursting = false;

  const startWindow = () => {
    timer = setTimeout(endWindow, windowMs);
    timer.unref();
  };
  function endWindow() {
    timer = undefined;
    shown = 0;
    // A window that had to count is followed by a quiet one (counts only); one that did not ends the burst.
    bursting = counted > 0;
    if (!bursting || !newest) return;
    options.log(
      `Caught ${counted.toLocaleString("en")} more messages in ${String(windowMs / 1000)} s (the newest: "${newest.subject}" to ${newest.to.join(", ")}): ${options.inboxUrl}`,
    );
    counted = 0;
    startWindow();
  }

  return {
    onMessage: (mail) => {
      if (!timer) startWindow();
      if (!bursting && shown < perWindow) {
        shown += 1;
        options.log(`Caught "${mail.subject}" to ${mail.to.join(", ")}: ${options.inboxUrl}/${mail.id}`);
        return;
      }
      counted += 1;
      newest = mail;
    },
    stop: () => {
      clearTimeout(timer);
    },
  };
}
