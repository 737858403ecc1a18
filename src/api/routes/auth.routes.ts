import { loginAnswerSchema, loginSchema, sessionStateSchema } from "../../core/auth/login.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const authRoutes = {
  login: declareRoute({
    method: "POST",
    path: apiPaths.login,
    access: "public",
    summary: "Logs the owner in: sets the session cookie",
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
  session: declareRoute({
    method: "GET",
    path: apiPaths.session,
    access: "public",
    summary: "Whether the request carries a live admin session",
    answers: { 200: jsonAnswer(sessionStateSchema, "The session state") },
  }),
};
