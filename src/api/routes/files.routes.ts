import { NotFoundError } from "../../core/errors.ts";
import type { Route } from "../route-table.ts";

/** A stored image's name: `<uuid>.<ext>`-like, never a path (no slashes, no leading dot). */
const imageNamePattern = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9]+$/;

export const filesRoutes: Route[] = [
  {
    method: "GET",
    // Only `images/` is public: resource files go out through signed download links, never here.
    path: "/api/files/images/:name",
    handle: async ({ params, deps }) => {
      const name = params.name ?? "";
      const file = imageNamePattern.test(name) ? await deps.files.get(`images/${name}`) : null;
      if (!file) throw new NotFoundError("File not found");
      // Copied: the store's view may sit on a shared buffer, which a Response body can't take.
      return new Response(new Uint8Array(file.data), {
        headers: {
          "content-type": file.contentType,
          "content-length": String(file.data.byteLength),
          // Keys are never reused (a new upload gets a new uuid), so the bytes behind a URL never change.
          "cache-control": "public, max-age=31536000, immutable",
          // Even if a stored file were not the image its type says, the browser won't run it.
          "x-content-type-options": "nosniff",
          "content-security-policy": "default-src 'none'",
        },
      });
    },
  },
];
