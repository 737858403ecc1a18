import { createApiKey, listApiKeys, revokeApiKey } from "../../core/api-keys/api-keys.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { apiKeysRoutes } from "./api-keys.routes.ts";

export const apiKeysHandlers: RouteHandlers<typeof apiKeysRoutes> = {
  list: ({ deps }) => listApiKeys(deps),
  create: ({ body, deps }) => createApiKey(deps, body),
  revoke: ({ params, deps }) => revokeApiKey(deps, params.id),
};
