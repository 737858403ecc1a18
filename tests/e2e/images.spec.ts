import { expect, test, type Page } from "@playwright/test";
import sharp from "sharp";
import { phonePhoto } from "../support/phone-photo.ts";
import { eventually, logIn, unique } from "./admin.ts";
import { fileOnDisk } from "./files-on-disk.ts";
import { toast } from "./islands.ts";

const form = (page: Page) => page.locator("#admin-post-form");

/** A post's public page: its own URL when the API gives one, else SPEC's `/blog/{id}`. */
async function postPage(page: Page, title: string): Promise<string> {
  const posts = (await (await page.request.get("/api/blog-posts")).json()) as { id: number; title: string; url?: string }[];
  const post = posts.find((candidate) => candidate.title === title);
  expect(post, title).toBeDefined();
  const { id, url } = post as { id: number; url?: string };
  return url ? new URL(url, "http://site").pathname : `/blog/${String(id)}`;
}

test("a 12 MP phone photo shrinks in the browser before upload, and a phone gets a small WebP of it", async ({ page, browser }) => {
  test.setTimeout(120_000);
  const photo = await phonePhoto();
  expect(photo.length).toBeGreaterThan(2.5 * 1024 * 1024);
  const title = unique("Straight from the camera roll");
  await logIn(page);

  // Chosen from the file chooser, as the owner picks it from the phone's photos.
  const chooser = page.waitForEvent("filechooser");
  await form(page).getByLabel("Featured Image").click();
  await (await chooser).setFiles({ name: "IMG_4032.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(form(page).getByText(/^Resized 2\.\d MB → \d+ KB, location and camera data removed\.$/)).toBeVisible();
  await expect(form(page).getByRole("img", { name: "Featured image preview" })).toBeVisible();

  await form(page).getByLabel("Title").fill(title);
  await form(page).getByLabel("Cover Alt Text").fill("A founder on a train, laptop open, on the way to a pitch");
  await form(page).getByRole("textbox", { name: "Content" }).fill("Shot on the way to the pitch.");
  await form(page).getByLabel("Publish immediately").check();
  const sent = page.waitForRequest((request) => request.method() === "POST" && new URL(request.url()).pathname === "/api/blog-posts");
  await form(page).getByRole("button", { name: "Create Post" }).click();
  const body = (await sent).postDataBuffer() ?? Buffer.alloc(0);
  await expect(toast(page, "Post Created")).toBeVisible();

  // What went over the wire: well under the 4 MB a function takes, with no EXIF (camera, GPS) in it.
  expect(body.length).toBeLessThan(1.5 * 1024 * 1024);
  expect(body.includes("No Filter Phone")).toBe(false);
  expect(body.includes("Exif\0\0")).toBe(false);

  const pagePath = await postPage(page, title);
  const html = await eventually(page.request, pagePath, (text, status) => status === 200 && text.includes(title));
  // Stored upright (the phone held it sideways with orientation 6) at 2560 px on the long edge.
  const stored = /%2Fapi%2Ffiles%2Fimages%2F([^&"]+)/.exec(html)?.[1] ?? "";
  expect(stored).toMatch(/_1920x2560\.jpg$/);
  const original = await sharp(await (await page.request.get(`/api/files/images/${stored}`)).body()).metadata();
  expect({ width: original.width, height: original.height, exif: original.exif }).toEqual({ width: 1920, height: 2560, exif: undefined });

  // A 390 px phone at 2× picks a width near 2 × 358 px from the srcset, in WebP, not the 2560 px original.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  const phonePage = await phone.newPage();
  const imageBytes: number[] = [];
  phonePage.on("response", (response) => {
    if (response.request().resourceType() === "image") void response.body().then((bytes) => imageBytes.push(bytes.length));
  });
  await phonePage.goto(pagePath);
  const cover = phonePage.locator("article picture img").first();
  await expect(cover).toHaveJSProperty("complete", true);
  await expect(cover).toHaveAttribute("fetchpriority", "high");
  await expect(cover).toHaveAttribute("loading", "eager");
  const shown = await cover.evaluate((image: HTMLImageElement) => ({
    src: image.currentSrc,
    width: image.getAttribute("width"),
    height: image.getAttribute("height"),
  }));
  expect(new URL(shown.src).pathname).toBe("/.netlify/images");
  expect(new URL(shown.src).searchParams.get("fm")).toBe("webp");
  expect(new URL(shown.src).searchParams.get("w")).toBe("800");
  // The post shows the photo whole, in its own 3:4, as the dashboard does: not cropped to the cards' 1200×630.
  expect(new URL(shown.src).searchParams.get("h")).toBeNull();
  expect(Number(shown.width) / Number(shown.height)).toBeCloseTo(3 / 4, 2);
  await phonePage.waitForLoadState("networkidle");
  expect(imageBytes.reduce((sum, bytes) => sum + bytes, 0)).toBeLessThan(150 * 1024);
  await phone.close();
});

test("an image over 25 MB is refused before anything is sent", async ({ page }, testInfo) => {
  await logIn(page);
  await form(page)
    .getByLabel("Featured Image")
    .setInputFiles(await fileOnDisk(testInfo, "huge.jpg", 25 * 1024 * 1024 + 1));
  await expect(form(page).getByText("The image is too large (the limit is 25 MB)")).toBeVisible();
});

test("a click on the cover's preview sets the focal point the home card crops around, never letterboxed", async ({ page }) => {
  test.setTimeout(120_000);
  // A tall picture: a 1200×630 crop shows a third of it, so where the crop sits is plain to see.
  const tall = await sharp({ create: { width: 600, height: 900, channels: 3, background: "#1e3a8a" } })
    .composite([
      {
        input: await sharp({ create: { width: 600, height: 200, channels: 3, background: "#f97316" } })
          .png()
          .toBuffer(),
        top: 680,
        left: 0,
      },
    ])
    .png()
    .toBuffer();
  const title = unique("The subject sits low");
  await logIn(page);
  await form(page).getByLabel("Featured Image").setInputFiles({ name: "tall.png", mimeType: "image/png", buffer: tall });
  const picker = form(page).getByRole("button", { name: /^Focal point:/ });
  await expect(picker).toHaveAccessibleName("Focal point: 50% across, 50% down");
  await expect(picker.locator("img")).toHaveJSProperty("complete", true);
  const box = await picker.locator("img").boundingBox();
  expect(box).not.toBeNull();
  const { width, height } = box as { width: number; height: number };
  await picker.locator("img").click({ position: { x: width * 0.5, y: height * 0.86 } });
  await expect(picker).toHaveAccessibleName(/^Focal point: 5\d% across, 8\d% down$/);
  // The arrow keys move it too, and the crop beside it follows.
  await picker.press("ArrowDown");
  const label = (await picker.getAttribute("aria-label")) ?? "";
  const [, across, down] = /(\d+)% across, (\d+)% down/.exec(label) ?? [];
  await expect(form(page).locator("[data-crop-preview]")).toHaveCSS("object-position", `${String(across)}% ${String(down)}%`);

  await form(page).getByLabel("Title").fill(title);
  await form(page).getByLabel("Cover Alt Text").fill("An orange band at the foot of a blue wall");
  await form(page).getByRole("textbox", { name: "Content" }).fill("Where the eye should land.");
  await form(page).getByLabel("Publish immediately").check();
  await form(page).getByRole("button", { name: "Create Post" }).click();
  await expect(toast(page, "Post Created")).toBeVisible();

  await eventually(page.request, "/", (text, status) => status === 200 && text.includes(title));
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto("/");
  const card = page.locator("article", { hasText: title }).first();
  const cover = card.locator("picture img");
  await expect(cover).toHaveCSS("object-position", `${String(across)}% ${String(down)}%`);
  // The files keep the picture's own shape (the page crops it), so the low subject is still in them.
  const source = new URL((await cover.getAttribute("src")) ?? "", "http://site");
  expect(source.searchParams.get("h")).toBeNull();
  await expect(cover).toHaveJSProperty("complete", true);
  // No letterbox: the picture fills the box it sits in, top to bottom.
  const sizes = await cover.evaluate((image: HTMLImageElement) => ({
    // Inside the frame's borders.
    frame: image.closest("picture")?.parentElement?.clientHeight ?? 0,
    image: image.getBoundingClientRect().height,
  }));
  expect(Math.abs(sizes.frame - sizes.image)).toBeLessThan(2);
});
