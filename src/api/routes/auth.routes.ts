import {
  loginAnswerSchema,
  loginSchema,
  passwordChangeSchema,
  passwordStateSchema,
  reauthenticationAnswerSchema,
  sessionStateSchema,
} from "../../core/auth/login.schema.ts";
import { reauthenticationSchema } from "../../core/auth/passkey.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const authRoutes = {
  login: declareRoute({
    method: "POST",
    path: apiPaths.login,
    access: "public",
    summary: "Logs the owner in: sets the session cookie, and a device cookie that gives this browser login attempts of its own",
    body: { type: "json", schema: loginSchema },
    answers: {
      200: jsonAnswer(
        loginAnswerSchema,
        "Logged in, the session cookie set; or, when a passkey is required, `secondStep: passkey` and no session yet",
      ),
    },
    errors: [401, 429],
  }),
  logout: declareRoute({
    method: "POST",
    path: apiPaths.logout,
    access: "public",
    summary: "Ends the session of the request's cookie, if any",
    answers: { 200: jsonAnswer(sessionStateSchema, "Logged out; the cookie is cleared") },
  }),
  reauthenticate: declareRoute({
    method: "POST",
    path: apiPaths.reauthenticate,
    access: "admin",
    scope: "none",
    summary:
      "Confirms it is the owner (the password, or a passkey's answer to a login challenge): security changes need this or a login from the last 5 minutes",
    body: { type: "json", schema: reauthenticationSchema },
    answers: { 200: jsonAnswer(reauthenticationAnswerSchema, "Confirmed: security changes are allowed for 5 minutes") },
    errors: [429],
  }),
  changePassword: declareRoute({
    method: "PUT",
    path: apiPaths.password,
    access: "admin",
    scope: "none",
    summary:
      "Sets the owner's password (the current one, or a sign-in from the last 5 minutes, required); every other session ends. A new ADMIN_PASSWORD_HASH set in the environment later wins over it",
    body: { type: "json", schema: passwordChangeSchema },
    answers: { 200: jsonAnswer(passwordStateSchema, "Changed: where the password comes from now") },
    errors: [403, 429],
  }),
  session: declareRoute({
    method: "GET",
    path: apiPaths.session,
    access: "public",
    summary: "Whether the request carries a live admin session",
    answers: { 200: jsonAnswer(sessionStateSchema, "The session state") },
  }),
};
