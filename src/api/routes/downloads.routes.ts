import { z } from "zod";
import {
  adminDownloadSchema,
  downloadFormSchema,
  downloadLinkQuerySchema,
  downloadLinkSchema,
  downloadRequestSchema,
  publicDownloadSchema,
} from "../../core/downloads/download.schema.ts";
import { resourceGoneMessage } from "../../core/messages.ts";
import type { SignedDownload } from "../../core/shared/links.ts";
import { apiPaths, pathWith } from "../api-paths.ts";
import { declareRoute, emptyAnswer, fileAnswer, jsonAnswer, redirectAnswer } from "../declare-route.ts";
import { rowIdParams } from "../params.schema.ts";

const resourceId = rowIdParams(resourceGoneMessage);

export const downloadsRoutes = {
  list: declareRoute({
    method: "GET",
    path: apiPaths.downloads,
    access: "session",
    scope: "content:read",
    shared: true,
    summary: "Every resource, newest first; with an admin session each also carries `thumbnailPath`",
    answers: { 200: jsonAnswer(z.union([z.array(adminDownloadSchema), z.array(publicDownloadSchema)]), "The resources") },
  }),
  create: declareRoute({
    method: "POST",
    path: apiPaths.downloads,
    access: "admin",
    scope: "content:write",
    summary: "Adds a resource: its file (required) and an optional thumbnail",
    body: { type: "multipart", schema: downloadFormSchema },
    answers: { 201: jsonAnswer(adminDownloadSchema, "The new resource") },
  }),
  update: declareRoute({
    method: "PUT",
    path: apiPaths.download,
    access: "admin",
    scope: "content:write",
    summary: "Changes a resource; the file and thumbnail are kept unless replaced",
    params: resourceId,
    body: { type: "multipart", schema: downloadFormSchema },
    answers: { 200: jsonAnswer(adminDownloadSchema, "The resource as saved") },
  }),
  remove: declareRoute({
    method: "DELETE",
    path: apiPaths.download,
    access: "admin",
    scope: "content:write",
    summary: "Removes a resource, its file and its thumbnail",
    params: resourceId,
    answers: { 204: emptyAnswer("Deleted") },
  }),
  request: declareRoute({
    method: "POST",
    path: apiPaths.downloadRequest,
    access: "public",
    summary: "A visitor gives an email for a resource: subscribes them and answers a signed link valid for 24 hours",
    params: resourceId,
    // Without JavaScript the browser posts the dialog's form itself: it is sent on to the file.
    body: {
      type: "json",
      schema: downloadRequestSchema,
      form: { success: (answer) => downloadLinkSchema.parse(answer).downloadUrl, failure: "/download-failed/" },
    },
    answers: {
      200: jsonAnswer(downloadLinkSchema, "The signed download link"),
      303: redirectAnswer("A form posted without JavaScript: to the signed link (the file), or /download-failed/ when refused"),
    },
    errors: [429],
  }),
  file: declareRoute({
    method: "GET",
    path: apiPaths.downloadFile,
    access: "public",
    summary: "The resource's file, for a signed, unexpired link",
    params: resourceId,
    query: downloadLinkQuerySchema,
    answers: { 200: fileAnswer("application/octet-stream", "The file, as an attachment under its original name") },
    // The link's signature is forged or altered, or it has expired.
    errors: [403],
  }),
};

/** A resource's signed download link, answered by `downloadsRoutes.file`. */
export function downloadFileUrl(id: number, signed: SignedDownload): string {
  return `${pathWith(apiPaths.downloadFile, { id })}?${new URLSearchParams({ ...signed }).toString()}`;
}
