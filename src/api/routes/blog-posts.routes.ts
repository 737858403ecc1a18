import { z } from "zod";
import { UnauthorizedError } from "../../core/errors.ts";
import { postFormSchema } from "../../core/posts/post.schema.ts";
import { createPost, deletePost, getPost, listPosts, updatePost, uploadPostImage } from "../../core/posts/posts.service.ts";
import { readForm } from "../forms.ts";
import { json } from "../http.ts";
import { idParam } from "../route-params.ts";
import type { Route, RouteContext } from "../route-table.ts";

const imageUploadSchema = z.object({
  image: z.instanceof(File, { error: "Please select an image to upload." }),
});

const postId = ({ params }: RouteContext) => idParam(params, "Post not found");

export const blogPostsRoutes: Route[] = [
  {
    method: "GET",
    path: "/api/blog-posts",
    shared: true,
    // Public with ?published=true; without it the list includes drafts, so it is the admin's.
    handle: async (context) => {
      const publishedOnly = context.url.searchParams.get("published") === "true";
      if (!publishedOnly && !(await context.session())) {
        throw new UnauthorizedError("Your session has expired. Please log in again.");
      }
      return json(await listPosts(context.deps, { publishedOnly }));
    },
  },
  {
    method: "POST",
    path: "/api/blog-posts",
    access: "admin",
    handle: async ({ request, deps }) => {
      const form = await readForm(request, postFormSchema);
      return json(await createPost(deps, form), { status: 201 });
    },
  },
  // Before `/:id`, which would otherwise take "upload-image" for an id.
  {
    method: "POST",
    path: "/api/blog-posts/upload-image",
    access: "admin",
    handle: async ({ request, deps }) => {
      const { image } = await readForm(request, imageUploadSchema);
      return json(await uploadPostImage(deps, image));
    },
  },
  {
    method: "GET",
    path: "/api/blog-posts/:id",
    shared: true,
    // A draft is visible only with a session; to anyone else it does not exist.
    handle: async (context) => {
      const includeDrafts = (await context.session()) !== null;
      return json(await getPost(context.deps, postId(context), { includeDrafts }));
    },
  },
  {
    method: "PUT",
    path: "/api/blog-posts/:id",
    access: "admin",
    handle: async (context) => {
      const id = postId(context);
      const form = await readForm(context.request, postFormSchema);
      return json(await updatePost(context.deps, id, form));
    },
  },
  {
    method: "DELETE",
    path: "/api/blog-posts/:id",
    access: "admin",
    handle: async (context) => {
      await deletePost(context.deps, postId(context));
      return new Response(null, { status: 204 });
    },
  },
];
