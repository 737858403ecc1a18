import { downloadFormSchema, downloadRequestSchema } from "../../core/downloads/download.schema.ts";
import { downloadLinkSecret, verifyDownloadLink } from "../../core/downloads/download-link.ts";
import {
  createDownload,
  deleteDownload,
  downloadFile,
  listDownloads,
  listDownloadsForAdmin,
  requestDownload,
  updateDownload,
} from "../../core/downloads/downloads.service.ts";
import { ForbiddenError } from "../../core/errors.ts";
import { readForm } from "../forms.ts";
import { json, readJson } from "../http.ts";
import { idParam } from "../route-params.ts";
import type { Route } from "../route-table.ts";

const resourceId = (params: Record<string, string>) => idParam(params, "This resource does not exist.");

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / 8187). */
function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export const downloadsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/downloads",
    shared: true,
    // One list for both: the dashboard (with a session) also gets its `thumbnailPath` field.
    handle: async ({ deps, session }) => json((await session()) ? await listDownloadsForAdmin(deps) : await listDownloads(deps)),
  },
  {
    method: "POST",
    path: "/api/downloads",
    access: "admin",
    handle: async ({ request, deps }) => {
      const form = await readForm(request, downloadFormSchema);
      return json(await createDownload(deps, form), { status: 201 });
    },
  },
  {
    method: "PUT",
    path: "/api/downloads/:id",
    access: "admin",
    handle: async ({ request, params, deps }) => {
      const id = resourceId(params);
      const form = await readForm(request, downloadFormSchema);
      return json(await updateDownload(deps, id, form));
    },
  },
  {
    method: "DELETE",
    path: "/api/downloads/:id",
    access: "admin",
    handle: async ({ params, deps }) => {
      await deleteDownload(deps, resourceId(params));
      return new Response(null, { status: 204 });
    },
  },
  {
    method: "POST",
    path: "/api/downloads/:id/request",
    handle: async ({ request, params, deps, clientIp }) => {
      const id = resourceId(params);
      const { email } = await readJson(request, downloadRequestSchema);
      return json(await requestDownload(deps, { id, email, clientIp }));
    },
  },
  {
    method: "GET",
    path: "/api/downloads/:id/file",
    handle: async ({ url, params, deps }) => {
      const id = resourceId(params);
      const link = { id, expires: url.searchParams.get("expires"), signature: url.searchParams.get("signature") };
      if (!verifyDownloadLink(downloadLinkSecret(deps.env), link, deps.now())) {
        throw new ForbiddenError("This download link is invalid or has expired.");
      }
      const file = await downloadFile(deps, id);
      return new Response(new Uint8Array(file.data), {
        headers: {
          "content-type": file.contentType,
          "content-disposition": attachmentDisposition(file.fileName),
          "content-length": String(file.data.byteLength),
          "x-content-type-options": "nosniff",
          "referrer-policy": "no-referrer",
          "cache-control": "private, no-store",
        },
      });
    },
  },
];
