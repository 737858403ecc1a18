/**
 * A post whose featured image is a 12 MP phone photo, published through the API as the dashboard
 * does it: the photo scaled to 2560 px on its long edge, upright and without metadata, as the
 * dashboard's browser-side resize leaves it (here with sharp, to the same rules), then uploaded.
 */
import sharp from "sharp";
import { maxImageEdge } from "../../src/core/files/image-sizes.ts";
import { formData } from "../support/multipart.ts";
import { phonePhoto } from "../support/phone-photo.ts";
import { adminCookie } from "./admin-session.ts";
import { waitForPage } from "./publish-live.ts";

const paragraphs = [
  "We shot this on the way to the pitch, on a phone, and uploaded it straight from the camera roll.",
  "The numbers behind the round were worse than the photo suggests: eleven months of runway, two churned pilots, and a pricing page we had rewritten four times.",
  "What changed the conversation was not the deck. It was the honest answer to the question we had been dodging for a year.",
];

/** Publishes the post and waits until its page is built; resolves with the page's path. */
export async function publishPhotoPost(siteUrl: string, password: string): Promise<{ path: string; photoBytes: number; uploadedBytes: number }> {
  const photo = await phonePhoto();
  const scaled = await sharp(photo)
    .autoOrient()
    .resize(maxImageEdge, maxImageEdge, { fit: "inside", withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
  const title = "Twelve megapixels of honesty";
  const form = formData({
    title,
    excerpt: "A post whose cover came straight from a phone.",
    category: "Funding",
    readTime: "4",
    published: "true",
    content: paragraphs.map((text) => `<p>${text}</p>`).join(""),
    featuredImage: new File([new Uint8Array(scaled)], "IMG_4032.jpg", { type: "image/jpeg" }),
    featuredImageAlt: "A founder on a train, laptop open, on the way to a pitch",
  });
  const headers = { origin: new URL(siteUrl).origin, cookie: await adminCookie(siteUrl, password) };
  const response = await fetch(new URL("/api/blog-posts", siteUrl), { method: "POST", headers, body: form });
  if (!response.ok) throw new Error(`creating the photo post failed: ${String(response.status)} ${await response.text()}`);
  const post = (await response.json()) as { id: number; url?: string };
  // The post's own URL when the API gives one (a slug), else SPEC's `/blog/{id}`.
  const path = post.url ? new URL(post.url, siteUrl).pathname : `/blog/${String(post.id)}`;
  await waitForPage(siteUrl, path, title);
  return { path, photoBytes: photo.length, uploadedBytes: scaled.length };
}
