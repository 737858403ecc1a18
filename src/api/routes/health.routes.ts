import { z } from "zod";
import { healthSchema } from "../../core/health.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, jsonAnswer } from "../declare-route.ts";

export const healthRoutes = {
  check: declareRoute({
    method: "GET",
    path: apiPaths.health,
    access: "public",
    summary: "Proves the API can reach its database",
    answers: { 200: jsonAnswer(healthSchema, "The service and its database answer") },
  }),
  openApi: declareRoute({
    method: "GET",
    path: apiPaths.openApi,
    access: "public",
    summary: "This API's OpenAPI 3.1 document",
    answers: { 200: jsonAnswer(z.record(z.string(), z.unknown()), "The OpenAPI document") },
  }),
};
