import { z } from "zod";
import { readerCommentsSchema } from "../../core/comments/comment.schema.ts";
import {
  readerNameSchema,
  readerReplyNoticesSchema,
  readerSchema,
  readerSignInSchema,
  readerVerifySchema,
} from "../../core/readers/reader.schema.ts";
import { subscriberGoneMessage } from "../../core/subscribers/subscriber-privacy.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, fileAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const signedIn = jsonAnswer(readerSchema, "The signed-in reader");

/**
 * Readers (issue 44 point 1): sign-in by an email's link or code, the reader's own session cookie,
 * and the reader's page's calls. Public routes: a reader cookie is never an admin session, and an
 * admin route answers 401 to it.
 */
export const readersRoutes = {
  signIn: declareRoute({
    method: "POST",
    path: apiPaths.readerSignIn,
    access: "public",
    summary:
      "Asks for a sign-in email: a confirmed subscriber gets a link and a 6-digit code (15 minutes, single use), anyone else the sign-up-and-confirm email. The same answer either way",
    body: { type: "json", schema: readerSignInSchema },
    answers: { 202: jsonAnswer(z.object({ message: z.string() }), "Check your inbox") },
    errors: [429],
  }),
  verify: declareRoute({
    method: "POST",
    path: apiPaths.readerSignInVerify,
    access: "public",
    summary:
      "Signs in with the email's link token (the Continue page's POST) or the address and code; sets the reader cookie. GET and HEAD of the link spend nothing",
    body: { type: "json", schema: readerVerifySchema },
    answers: { 200: signedIn },
    errors: [429],
  }),
  signOut: declareRoute({
    method: "POST",
    path: apiPaths.readerSignOut,
    access: "public",
    summary: "Ends this browser's reader session and clears its cookie",
    answers: { 204: emptyAnswer("Signed out") },
  }),
  me: declareRoute({
    method: "GET",
    path: apiPaths.readerMe,
    access: "public",
    summary: "The signed-in reader: email, display name, status",
    answers: { 200: signedIn },
    errors: [401],
  }),
  rename: declareRoute({
    method: "PUT",
    path: apiPaths.readerMe,
    access: "public",
    summary: "Sets the reader's display name (plain text, 1–50 characters)",
    body: { type: "json", schema: readerNameSchema },
    answers: { 200: signedIn },
    errors: [401],
  }),
  replyNotices: declareRoute({
    method: "PUT",
    path: apiPaths.readerMeReplyNotices,
    access: "public",
    summary: "Turns the reader's reply emails on or off (a reply email's one-click unsubscribe turns them off; the reader's page turns them back on)",
    body: { type: "json", schema: readerReplyNoticesSchema },
    answers: { 200: signedIn },
    errors: [401],
  }),
  comments: declareRoute({
    method: "GET",
    path: apiPaths.readerMeComments,
    access: "public",
    summary: "The reader's own comments shown or waiting for approval, newest first (at most 200; all of them are in the export)",
    answers: { 200: jsonAnswer(readerCommentsSchema, "Their comments") },
    errors: [401],
  }),
  erase: declareRoute({
    method: "DELETE",
    path: apiPaths.readerMe,
    access: "public",
    summary: "Delete my account: erases the person as the dashboard's erase does, and signs them out",
    answers: { 204: emptyAnswer("Erased") },
    errors: [401],
  }),
  export: declareRoute({
    method: "GET",
    path: apiPaths.readerMeExport,
    access: "public",
    summary: "The signed-in reader's data, as the dashboard's export of the person (JSON download)",
    answers: { 200: fileAnswer("application/json", "Everything held about them") },
    errors: [401],
  }),
  endSessions: declareRoute({
    method: "POST",
    path: apiPaths.readerSessionsEnd,
    access: "admin",
    scope: "subscribers:write",
    summary: "Signs a reader out on every browser (the owner's button on the person)",
    params: rowIdParams(subscriberGoneMessage),
    answers: { 200: jsonAnswer(z.object({ ended: z.number().int() }), "How many sessions ended") },
  }),
};
