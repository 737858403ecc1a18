import { verifyDownloadLink } from "../../core/downloads/download-link.ts";
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
import { recordDownload } from "../../core/stats/stats.service.ts";
import { attachment } from "../attachment.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { countAfterAnswer, formRequestOf } from "../visit.ts";
import type { downloadsRoutes } from "./downloads.routes.ts";

export const downloadsHandlers: RouteHandlers<typeof downloadsRoutes> = {
  list: async ({ deps, owner }) => ((await owner()) ? listDownloadsForAdmin(deps) : listDownloads(deps)),
  create: ({ body, deps }) => createDownload(deps, body),
  update: ({ params, body, deps }) => updateDownload(deps, params.id, body),
  remove: ({ params, deps }) => deleteDownload(deps, params.id),
  request: async ({ params, body, deps, clientIp, request, session }) => {
    const answer = await requestDownload(deps, { id: params.id, email: body.email, clientIp });
    countAfterAnswer(deps, async () => {
      if (!(await session())) await recordDownload(deps, params.id, formRequestOf(request, clientIp, deps.env.SITE_URL));
    });
    return answer;
  },
  file: async ({ params, query, deps, request }) => {
    const link = {
      id: params.id,
      expires: query.expires ?? null,
      signature: query.signature ?? null,
      recipient: query.r ?? null,
      purchase: query.p ?? null,
    };
    if (!verifyDownloadLink(deps.signer, link, deps.now())) {
      throw new ForbiddenError("This download link is invalid or has expired.");
    }
    const owner = link.recipient !== null && request.method === "GET" ? Number(link.recipient) : null;
    const file = await downloadFile(deps, params.id, owner, link.purchase === null ? null : Number(link.purchase));
    return attachment(new Uint8Array(file.data), { fileName: file.fileName, contentType: file.contentType, bytes: file.data.byteLength });
  },
};
