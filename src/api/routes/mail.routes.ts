import { outboxHealthSchema } from "../../core/mail/outbox.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

/** The transactional mail's health: what the owner sees in the dashboard, and the retry. */
export const mailRoutes = {
  outbox: declareRoute({
    method: "GET",
    path: apiPaths.mailOutbox,
    access: "admin",
    scope: "none",
    summary: "Pending and failed transactional email with the last reply, and the pause while the mail provider fails as a whole",
    answers: { 200: jsonAnswer(outboxHealthSchema, "The outbox's health") },
  }),
  retry: declareRoute({
    method: "POST",
    path: apiPaths.mailOutboxRetry,
    access: "admin",
    scope: "none",
    summary: "Puts every failed transactional email back in the queue and ends a pause's wait: delivery tries again at once",
    answers: { 202: jsonAnswer(outboxHealthSchema, "The outbox's health, the failed messages pending again") },
  }),
};
