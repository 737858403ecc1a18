import { apiPaths, pathWith } from "../../../api/api-paths.ts";
import { uploadsRoutes } from "../../../api/routes/uploads.routes.ts";
import { maxFileBytes } from "../../../core/files/upload-limits.ts";
import { apiErrorFrom, callApi } from "../api-client.ts";

/** The largest file the dashboard sends in parts: a 100 MB export with room to spare. */
export const maxUploadBytes = 512 * 1024 * 1024;
export const uploadTooLargeMessage = "The file is too large (the limit is 512 MB)";

/**
 * Sends a file over one request's limit in 4 MB parts (`uploadsRoutes`) and returns the upload's id,
 * which then stands for the file. `onProgress` hears the share sent, 0–1.
 */
export async function uploadInParts(file: File, onProgress: (fraction: number) => void): Promise<string> {
  const { uploadId } = await callApi(uploadsRoutes.start);
  const parts = Math.ceil(file.size / maxFileBytes);
  for (let part = 1; part <= parts; part++) {
    const response = await fetch(pathWith(apiPaths.uploadPart, { uploadId, part }), {
      method: "PUT",
      body: file.slice((part - 1) * maxFileBytes, part * maxFileBytes),
      headers: { "content-type": "application/octet-stream" },
      credentials: "same-origin",
    });
    if (!response.ok) throw apiErrorFrom(response.status, response.statusText, await response.text());
    onProgress(part / parts);
  }
  await callApi(uploadsRoutes.complete, { params: { uploadId } });
  return uploadId;
}
