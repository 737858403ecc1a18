import type { SqlQueryable } from "../db/sql-executor.ts";
import { settingDefinitions } from "../settings/settings.schema.ts";
import { siteSettingValues } from "../settings/settings.service.ts";
import type { Mailer } from "./mailer.ts";

const plainAddress = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;

/** What `replyingMailer` reads the `contact_email` setting with. */
export interface ReplyToDeps {
  db: SqlQueryable;
  now: () => Date;
}

export interface ReplyToOptions {
  /** MAIL_REPLY_TO: when set it wins over the setting, and the setting is never read. */
  fixed?: string | undefined;
  /** How long a reading of the setting is reused. Default 60 s. */
  cacheMs?: number;
}

/**
 * Where replies go (`Reply-To`), on every message `mailer` sends: MAIL_REPLY_TO, else the
 * `contact_email` setting — so a reader's answer reaches a person rather than a sending-only
 * address. The setting's seeded placeholder (`hello@example.com`) and an empty value add nothing:
 * replies to a placeholder would go to a stranger. The setting is read at most once a minute, not
 * once per message (a newsletter hands over thousands a minute); a change shows within that minute.
 * A message that already names a Reply-To keeps it.
 */
export function replyingMailer(deps: ReplyToDeps, mailer: Mailer, options: ReplyToOptions = {}): Mailer {
  const cacheMs = options.cacheMs ?? 60_000;
  let cached: { value: string | undefined; until: number } | undefined;
  const replyTo = async (): Promise<string | undefined> => {
    if (options.fixed) return options.fixed;
    const now = deps.now().getTime();
    if (cached && now < cached.until) return cached.value;
    const value = (await siteSettingValues(deps)).contact_email.trim();
    // The setting is checked as an address when saved; a value that is not one (set some other way) is
    // never put in a header, where a line break would start a header of its own.
    const usable = plainAddress.test(value) && value !== settingDefinitions.contact_email.defaultValue ? value : undefined;
    cached = { value: usable, until: now + cacheMs };
    return usable;
  };
  return {
    async send(message) {
      const address = await replyTo();
      const named = Object.keys(message.headers ?? {}).some((name) => name.toLowerCase() === "reply-to");
      if (!address || named) return mailer.send(message);
      return mailer.send({ ...message, headers: { ...message.headers, "Reply-To": address } });
    },
    close: () => mailer.close(),
  };
}
