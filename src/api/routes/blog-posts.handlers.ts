import { createPost, deletePost, getPost, listPosts, updatePost, uploadPostImage } from "../../core/posts/posts.service.ts";
import { requestedPage } from "../params.schema.ts";
import type { RouteHandlers } from "../route-handler.ts";
import type { blogPostsRoutes } from "./blog-posts.routes.ts";

export const blogPostsHandlers: RouteHandlers<typeof blogPostsRoutes> = {
  list: async ({ query, deps, requireOwner }) => {
    if (!query.published) await requireOwner();
    const page = requestedPage(query);
    return listPosts(deps, { publishedOnly: query.published, ...(page && { page }) });
  },
  create: ({ body, deps }) => createPost(deps, body),
  uploadImage: ({ body, deps }) => uploadPostImage(deps, body.image),
  get: async ({ params, deps, owner }) => getPost(deps, params.id, { includeDrafts: await owner() }),
  update: ({ params, body, deps }) => updatePost(deps, params.id, body),
  remove: ({ params, deps }) => deletePost(deps, params.id),
};
