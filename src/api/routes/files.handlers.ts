import { NotFoundError } from "../../core/errors.ts";
import type { RouteHandlers } from "../route-handler.ts";
import { imageKey, type filesRoutes } from "./files.routes.ts";

export const filesHandlers: RouteHandlers<typeof filesRoutes> = {
  image: async ({ params, deps }) => {
    const file = await deps.files.get(imageKey(params.name));
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
};
