import { z } from "zod";
import { settingUpdateSchema, siteSettingSchema } from "../../core/settings/settings.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const siteSettingsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.siteSettings,
    access: "public",
    shared: true,
    summary: "Every site setting with its value (its built-in default when none is stored)",
    answers: { 200: jsonAnswer(z.array(siteSettingSchema), "The settings, in the dashboard's order") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.siteSetting,
    access: "admin",
    scope: "none",
    summary: "Changes one setting; an empty value brings the default back",
    // Any key reaches the service, which answers an unknown one with its own 404.
    params: z.object({ key: z.string() }),
    body: { type: "json", schema: settingUpdateSchema },
    answers: { 200: jsonAnswer(siteSettingSchema, "The setting as saved") },
  }),
  hide: declareRoute({
    method: "PUT",
    path: apiPaths.siteSettingHidden,
    access: "admin",
    scope: "none",
    summary:
      "Turns a social link or a claim off (“Don't show”): the site leaves it out, where an empty value brings the default back. A save of any value shows it again",
    params: z.object({ key: z.string() }),
    answers: { 200: jsonAnswer(siteSettingSchema, "The setting as saved: empty and `hidden`") },
  }),
};
