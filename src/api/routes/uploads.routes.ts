import { uploadCompleteSchema, uploadParams, uploadPartParams, uploadStartedSchema } from "../../core/imports/upload.schema.ts";
import { apiPaths } from "../api-paths.ts";
import { declareRoute, emptyAnswer, jsonAnswer } from "../declare-route.ts";

export const uploadsRoutes = {
  start: declareRoute({
    method: "POST",
    path: apiPaths.uploads,
    access: "admin",
    scope: "content:write",
    summary: "Starts a chunked upload, for an export or a backup archive over 4 MB",
    answers: { 201: jsonAnswer(uploadStartedSchema, "The upload's id") },
  }),
  part: declareRoute({
    method: "PUT",
    path: apiPaths.uploadPart,
    access: "admin",
    scope: "content:write",
    summary: "One part of the file, numbered from 1, as the raw request body (application/octet-stream, at most 4 MB)",
    params: uploadPartParams,
    answers: { 204: emptyAnswer("Stored") },
    errors: [409],
  }),
  complete: declareRoute({
    method: "POST",
    path: apiPaths.uploadComplete,
    access: "admin",
    scope: "content:write",
    summary:
      "Closes the upload (its parts must run from 1 without a gap); its id then stands for the file in `POST /api/imports` and `POST /api/restores`",
    params: uploadParams,
    answers: { 200: jsonAnswer(uploadCompleteSchema, "The upload and how many parts it has") },
  }),
};
