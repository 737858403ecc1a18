import { z } from "zod";
import { apiKeyFormSchema, apiKeySchema, createdApiKeySchema } from "../../core/api-keys/api-key.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const keyId = rowIdParams("This API key no longer exists");

/** The owner's API keys: managed with the owner's session only, never with a key (`scope: "none"`). */
export const apiKeysRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.apiKeys,
    access: "admin",
    scope: "none",
    summary: "Every API key, newest first: name, scopes, first characters, created and last used (never the key)",
    answers: { 200: jsonAnswer(z.array(apiKeySchema), "The keys") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.apiKeys,
    access: "admin",
    scope: "none",
    summary: "Makes a key with a name and scopes; the answer holds the key, shown this once (only its SHA-256 is kept)",
    body: { type: "json", schema: apiKeyFormSchema },
    answers: { 201: jsonAnswer(createdApiKeySchema, "The new key, with the key itself") },
  }),
  revoke: declareRoute({
    method: "DELETE",
    path: apiPaths.apiKey,
    access: "admin",
    scope: "none",
    summary: "Revokes a key: the next call with it is refused (401)",
    params: keyId,
    answers: { 204: emptyAnswer("Revoked") },
  }),
};
