import { outboxHealth, retryOutbox } from "../../core/mail/outbox-health.ts";
import { startDelivery } from "../../core/mail/outbox.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { mailRoutes } from "./mail.routes.ts";

export const mailHandlers: RouteHandlers<typeof mailRoutes> = {
  outbox: ({ deps }) => outboxHealth(deps),
  retry: async ({ deps }) => {
    const health = await retryOutbox(deps);
    // Delivered after the answer (Netlify's waitUntil); `npm start`'s timer takes them up otherwise.
    startDelivery(deps);
    return health;
  },
};
