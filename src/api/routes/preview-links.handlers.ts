import { createPreviewLink, deletePreviewLink, listPreviewLinks } from "../../core/posts/preview-links.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { previewLinksRoutes } from "./preview-links.routes.ts";

export const previewLinksHandlers: RouteHandlers<typeof previewLinksRoutes> = {
  create: ({ params, body, deps }) => createPreviewLink(deps, params.id, body),
  list: ({ params, deps }) => listPreviewLinks(deps, params.id),
  remove: ({ params, deps }) => deletePreviewLink(deps, params.id),
};
