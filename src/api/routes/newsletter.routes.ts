import { z } from "zod";
import { subscribedSchema, subscriberSchema, subscribeSchema } from "../../core/subscribers/subscriber.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, fileAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";

export const newsletterRoutes = {
  subscribe: declareRoute({
    method: "POST",
    path: apiPaths.subscribe,
    access: "public",
    summary: "Signs an address up for the newsletter (the answer is the same whether it was new or not)",
    // Without JavaScript the browser posts the form itself: it gets a page to land on, not JSON.
    body: { type: "json", schema: subscribeSchema, form: { success: "/subscribed/", failure: "/subscribe-failed/" } },
    answers: {
      200: jsonAnswer(subscribedSchema, "Subscribed"),
      303: redirectAnswer("A form posted without JavaScript: to /subscribed/, or /subscribe-failed/ when refused"),
    },
    errors: [429],
  }),
  subscribers: declareRoute({
    method: "GET",
    path: apiPaths.subscribers,
    access: "admin",
    summary: "Every subscriber, newest first",
    answers: { 200: jsonAnswer(z.array(subscriberSchema), "The subscribers") },
  }),
  export: declareRoute({
    method: "GET",
    path: apiPaths.subscribersExport,
    access: "admin",
    summary: "Every subscriber as CSV (email-subscribers.csv)",
    answers: { 200: fileAnswer("text/csv", "The CSV file, formula-safe") },
  }),
};
