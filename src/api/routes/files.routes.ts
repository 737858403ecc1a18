import { z } from "zod";
import { apiPaths, pathWith } from "../api-paths.ts";
import { declareRoute, fileAnswer } from "../declare-route.ts";

/** A stored image's name: `<uuid>.<ext>`-like, never a path (no slashes, no leading dot). */
const imageNamePattern = /^[A-Za-z0-9][A-Za-z0-9_-]*\.[A-Za-z0-9]+$/;

export const filesRoutes = {
  // Only `images/` is public: resource files go out through signed download links, never here.
  image: declareRoute({
    method: "GET",
    path: apiPaths.image,
    access: "public",
    summary: "A stored image (featured images, editor images, thumbnails)",
    params: z.object({ name: z.string().regex(imageNamePattern, "File not found") }),
    answers: { 200: fileAnswer("image/*", "The image; its URL never changes content, so it is cached for a year") },
  }),
};

const imagesFolder = "images/";

/** The URL a stored file is served under: `images/<name>` keys only, through `filesRoutes.image`. */
export function publicFileUrl(key: string): string {
  if (!key.startsWith(imagesFolder)) throw new Error(`Only images are served publicly (got "${key}")`);
  return pathWith(apiPaths.image, { name: key.slice(imagesFolder.length) });
}

const publicImageUrl = new RegExp(`^${apiPaths.image.replace(":name", "")}(${imageNamePattern.source.slice(1, -1)})$`);

/** True for a URL `publicFileUrl` makes: the only images a post may show (the site's CSP loads no others). */
export function isPublicFileUrl(url: string): boolean {
  return publicImageUrl.test(url);
}

/** The stored key behind an image name of `filesRoutes.image`. */
export const imageKey = (name: string) => `${imagesFolder}${name}`;
