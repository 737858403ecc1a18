import type { SqlExecutor, SqlQueryable } from "../db/sql-executor.ts";
import { preferencesUrl, type MailDeps } from "../mail/person-mail.ts";
import { UnauthorizedError } from "../errors.ts";
import { eraseSubscriber } from "../subscribers/subscriber-privacy.ts";
import type { Reader } from "./reader.schema.ts";
import type { ReaderSession } from "./reader-sessions.ts";

export const signedOutMessage = "You're not signed in. Sign in with your email to continue.";

/** The signed-in reader as `/api/readers/me` answers; 401 when the session's person is gone. */
export async function readerProfile(
  deps: { db: SqlQueryable } & Pick<MailDeps, "site" | "signer" | "urls">,
  session: ReaderSession,
): Promise<Reader> {
  const { rows } = await deps.db.query<{
    id: number;
    email: string;
    display_name: string | null;
    status: Reader["status"];
    comment_reply_notices: boolean;
  }>("SELECT id, email, display_name, status, comment_reply_notices FROM subscribers WHERE id = $1", [session.subscriberId]);
  const row = rows[0];
  if (!row) throw new UnauthorizedError(signedOutMessage);
  return {
    id: row.id,
    email: row.email,
    name: row.display_name,
    status: row.status,
    sessionExpiresAt: session.expiresAt.toISOString(),
    preferencesUrl: preferencesUrl(deps, { id: row.id }),
    replyNotices: row.comment_reply_notices,
  };
}

/** Sets the reader's display name (already checked by `displayNameSchema`). */
export async function renameReader(
  deps: { db: SqlQueryable } & Pick<MailDeps, "site" | "signer" | "urls">,
  session: ReaderSession,
  name: string,
): Promise<Reader> {
  await deps.db.query("UPDATE subscribers SET display_name = $2 WHERE id = $1", [session.subscriberId, name]);
  return readerProfile(deps, session);
}

/** Turns the reader's reply emails on or off: the reader's page undoes a notice's one-click unsubscribe (issue 44 point 5). */
export async function setReaderReplyNotices(
  deps: { db: SqlQueryable } & Pick<MailDeps, "site" | "signer" | "urls">,
  session: ReaderSession,
  on: boolean,
): Promise<Reader> {
  await deps.db.query("UPDATE subscribers SET comment_reply_notices = $2 WHERE id = $1", [session.subscriberId, on]);
  return readerProfile(deps, session);
}

/** "Delete my account": the dashboard's erase of the person; their sessions and sign-ins go with the row (ON DELETE CASCADE). */
export async function eraseReader(deps: { db: SqlExecutor }, session: ReaderSession): Promise<void> {
  await eraseSubscriber(deps, session.subscriberId);
}
