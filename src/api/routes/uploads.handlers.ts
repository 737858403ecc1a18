import { completeUpload, putUploadPart, startUpload } from "../../core/imports/chunked-uploads.ts";
import { PayloadTooLargeError } from "../../core/errors.ts";
import { maxFileBytes } from "../../core/files/upload-limits.ts";
import { formTooLargeMessage } from "../../core/messages.ts";
import { readLimitedBody } from "../body-limit.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { uploadsRoutes } from "./uploads.routes.ts";

export const uploadsHandlers: RouteHandlers<typeof uploadsRoutes> = {
  start: ({ deps }) => startUpload(deps),
  part: async ({ params, request, deps }) => {
    const bytes = await readLimitedBody(request, maxFileBytes, () => new PayloadTooLargeError(formTooLargeMessage));
    await putUploadPart(deps, params.uploadId, params.part, bytes);
  },
  complete: ({ params, deps }) => completeUpload(deps, params.uploadId),
};
