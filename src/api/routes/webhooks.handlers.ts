import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhooks,
  rotateWebhookSecret,
  sendTestWebhook,
  updateWebhookEndpoint,
} from "../../core/webhooks/webhooks.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { webhooksRoutes } from "./webhooks.routes.ts";

export const webhooksHandlers: RouteHandlers<typeof webhooksRoutes> = {
  list: ({ deps }) => listWebhookEndpoints(deps),
  create: ({ body, deps }) => createWebhookEndpoint(deps, body),
  update: ({ params, body, deps }) => updateWebhookEndpoint(deps, params.id, body),
  remove: ({ params, deps }) => deleteWebhookEndpoint(deps, params.id),
  test: ({ params, deps }) => sendTestWebhook(deps, params.id),
  rotateSecret: ({ params, deps }) => rotateWebhookSecret(deps, params.id),
  deliveries: ({ params, query, deps }) => listWebhookDeliveries(deps, params.id, query),
  redeliver: ({ params, body, deps }) => redeliverWebhooks(deps, params.id, body),
};
