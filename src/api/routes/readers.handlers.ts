import { listReaderComments } from "../../core/comments/comments.service.ts";
import { UnauthorizedError } from "../../core/errors.ts";
import { eraseReader, readerProfile, renameReader, setReaderReplyNotices, signedOutMessage } from "../../core/readers/reader-profile.ts";
import { endReaderSession, endReaderSessions, findReaderSession, type ReaderSession } from "../../core/readers/reader-sessions.ts";
import { requestReaderSignIn, verifySignInCode, verifySignInToken } from "../../core/readers/reader-sign-in.ts";
import { exportSubscriberData } from "../../core/subscribers/subscriber-privacy.ts";
import type { AppDeps } from "../../app/app-deps.ts";
import { attachment } from "../attachment.ts";
import { json } from "../http.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { clearedReaderCookie, readerCookie, readReaderToken } from "../session-cookie.ts";
import type { readersRoutes } from "./readers.routes.ts";

/** The same words whoever asked: nobody learns from them who is subscribed. */
export const checkInboxMessage = "Check your inbox: we sent you an email to sign in. It can take a minute to arrive.";

/** The reader of the request's reader cookie; 401 without a live one (an admin session does not count). */
async function requireReader(deps: AppDeps, request: Request): Promise<ReaderSession> {
  const session = await findReaderSession(deps, readReaderToken(request));
  if (!session) throw new UnauthorizedError(signedOutMessage);
  return session;
}

export const readersHandlers: RouteHandlers<typeof readersRoutes> = {
  signIn: async ({ body, deps, clientIp }) => {
    await requestReaderSignIn(deps, { email: body.email, clientIp });
    return { message: checkInboxMessage };
  },
  verify: async ({ body, deps, clientIp, request }) => {
    const { token, session } =
      "token" in body
        ? await verifySignInToken(deps, { token: body.token, clientIp })
        : await verifySignInCode(deps, { email: body.email, code: body.code, clientIp });
    const reader = await readerProfile(deps, session);
    return json(reader, { headers: { "set-cookie": readerCookie(request, token) } });
  },
  signOut: async ({ deps, request }) => {
    await endReaderSession(deps, readReaderToken(request));
    return new Response(null, { status: 204, headers: { "set-cookie": clearedReaderCookie(request), "cache-control": "no-store" } });
  },
  me: async ({ deps, request }) => json(await readerProfile(deps, await requireReader(deps, request))),
  rename: async ({ deps, request, body }) => json(await renameReader(deps, await requireReader(deps, request), body.name)),
  replyNotices: async ({ deps, request, body }) => json(await setReaderReplyNotices(deps, await requireReader(deps, request), body.on)),
  comments: async ({ deps, request }) => json(await listReaderComments(deps.db, (await requireReader(deps, request)).subscriberId)),
  erase: async ({ deps, request }) => {
    await eraseReader(deps, await requireReader(deps, request));
    return new Response(null, { status: 204, headers: { "set-cookie": clearedReaderCookie(request), "cache-control": "no-store" } });
  },
  export: async ({ deps, request }) => {
    const session = await requireReader(deps, request);
    const data = await exportSubscriberData(deps, session.subscriberId);
    return attachment(
      JSON.stringify(data, null, 2),
      { fileName: "my-data.json", contentType: "application/json; charset=utf-8" },
      { "cache-control": "no-store" },
    );
  },
  endSessions: async ({ deps, params }) => ({ ended: await endReaderSessions(deps, params.id) }),
};
