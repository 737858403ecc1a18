import { createTag, deleteTag, listTags, updateTag } from "../../core/posts/tags.service.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { tagsRoutes } from "./tags.routes.ts";

export const tagsHandlers: RouteHandlers<typeof tagsRoutes> = {
  list: ({ deps }) => listTags(deps),
  create: ({ body, deps }) => createTag(deps, body),
  update: ({ params, body, deps }) => updateTag(deps, params.slug, body),
  remove: ({ params, deps }) => deleteTag(deps, params.slug),
};
