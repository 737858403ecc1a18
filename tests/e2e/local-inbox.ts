import { expect, type APIRequestContext } from "@playwright/test";

/** A message as `npm start`'s local inbox lists it (`/.netlify/local/inbox.json`). */
export interface InboxMail {
  subject: string;
  links: string[];
  headers: Record<string, string>;
}

/** The mail the local inbox caught for `email`, newest first, once there are `count`. */
export async function inboxFor(request: APIRequestContext, email: string, count: number, timeout = 15_000): Promise<InboxMail[]> {
  let mails: InboxMail[] = [];
  await expect
    .poll(
      async () => {
        // A connection the busy server dropped (a site rebuild) is asked again, not a failure.
        const answer = await request.get(`/.netlify/local/inbox.json?to=${encodeURIComponent(email)}`).catch(() => undefined);
        if (!answer?.ok()) return -1;
        mails = (await answer.json()) as InboxMail[];
        return mails.length;
      },
      { timeout },
    )
    .toBe(count);
  return mails;
}

/** An address the local catcher refuses (550 5.2.2, mailbox full) the first time it is sent to, and takes after (netlify/local/mail-catcher.ts). */
export const refusedOnceAddress = (tag: string) => `refuse-once+${tag}@example.com`;
