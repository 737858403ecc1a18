import { z } from "zod";

/** What a key may reach: each content, subscriber and stats call names one of these. */
export const apiScopes = ["content:read", "content:write", "subscribers:read", "subscribers:write", "stats:read"] as const;

export type ApiScope = (typeof apiScopes)[number];

export const apiScopeSchema = z.enum(apiScopes, { error: `A scope is one of ${apiScopes.join(", ")}` });

/** POST /api/keys: a name to tell the key apart, and at least one scope. */
export const apiKeyFormSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100, "The name must be at most 100 characters"),
  scopes: z
    .array(apiScopeSchema, { error: "Choose at least one scope" })
    .min(1, "Choose at least one scope")
    .transform((scopes) => apiScopes.filter((scope) => scopes.includes(scope))),
});

export type ApiKeyForm = z.output<typeof apiKeyFormSchema>;

/** A key as the dashboard lists it: never the key itself, only its first characters. */
export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: z.array(apiScopeSchema),
  prefix: z.string().meta({ description: "The key's first characters, to tell keys apart" }),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable().meta({ description: "The last call made with it, to the minute" }),
});

export type ApiKey = z.infer<typeof apiKeySchema>;

/** The answer to creating a key: the only time the key is shown. */
export const createdApiKeySchema = apiKeySchema.extend({
  key: z.string().meta({ description: "The key, shown this once: send it as `Authorization: Bearer <key>`" }),
});

export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
