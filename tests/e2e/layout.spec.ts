import { expect, test, type Page } from "@playwright/test";
import { demoArt, demoArtHtml, tones } from "../../netlify/local/demo-content/cover-art.ts";
import { demoPosts } from "../../netlify/local/demo-content/posts.ts";
import { archivoBlackDataUrl } from "../support/draw-demo-art.ts";

/** Issue 33, point 6: the layout faults found on a desktop and a phone, each held by a measure. */
const desktop = { width: 1440, height: 900 };
const phone = { width: 390, height: 844 };

/** The first post of the list, as the reader reaches it. */
async function firstPostPath(page: Page): Promise<string> {
  await page.goto("/blog");
  const href = await page.locator("main article h2 a, main article h3 a").first().getAttribute("href");
  expect(href).toBeTruthy();
  return href ?? "";
}

/** The first demo post's own address (its cover is the demo art). */
async function demoPostUrl(page: Page): Promise<string> {
  const [demo] = demoPosts;
  const posts = (await (await page.request.get("/api/blog-posts?published=true")).json()) as { url: string; featuredImageAlt: string | null }[];
  const post = posts.find((candidate) => candidate.featuredImageAlt === demo?.coverAlt);
  expect(post, "the first demo post is published").toBeDefined();
  return post?.url ?? "/";
}

/**
 * The left edges that should line up with the header's content: every band's content column (its
 * `max-w-6xl` container, inside its padding), the page title and the first card of each grid.
 * Runs in the page.
 */
function leftEdges(): { header: number; footer: number; others: { what: string; left: number }[] } {
  const contentLeft = (element: Element) => element.getBoundingClientRect().left + Number.parseFloat(getComputedStyle(element).paddingLeft);
  const header = document.querySelector("header a[href='/']")?.getBoundingClientRect().left ?? Number.NaN;
  const footer = document.querySelector("footer a[href='/']")?.getBoundingClientRect().left ?? Number.NaN;
  const describe = (element: Element) => `${element.tagName.toLowerCase()}.${[...element.classList].join(".")}`;
  const others = [
    ...[...document.querySelectorAll("main .max-w-6xl")].map((element) => ({ what: describe(element), left: contentLeft(element) })),
    ...[...document.querySelectorAll("main h1")].map((element) => ({ what: "h1", left: element.getBoundingClientRect().left })),
    ...[...document.querySelectorAll("main .grid")]
      // The outer grids: a category's own cards sit in its column of the outer one.
      .filter((grid) => grid.querySelector(":scope > article.card, :scope > section") && !grid.parentElement?.closest(".grid"))
      .map((grid) => ({ what: `first of ${describe(grid)}`, left: (grid.firstElementChild as Element).getBoundingClientRect().left })),
  ];
  return { header, footer, others };
}

test.describe("on a desktop (1440 × 900)", () => {
  test.use({ viewport: desktop });

  test("the hero, the sections and the card grids start where the header and the footer do", async ({ page }) => {
    for (const path of ["/", "/blog", "/downloads"]) {
      await page.goto(path);
      const { header, footer, others } = await page.evaluate(leftEdges);
      expect(others.length, path).toBeGreaterThan(2);
      expect(Math.abs(footer - header), `${path}: footer`).toBeLessThanOrEqual(1);
      for (const { what, left } of others)
        expect(Math.abs(left - header), `${path}: ${what} starts at ${String(left)}, the header at ${String(header)}`).toBeLessThanOrEqual(1);
    }
  });

  test("/downloads lays its cards out in rows, at a card's width", async ({ page }) => {
    await page.goto("/downloads");
    const boxes = await page
      .locator("[data-resource-groups] article.card")
      .evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().toJSON() as DOMRect));
    expect(boxes.length).toBeGreaterThanOrEqual(2);
    const firstRow = boxes.filter((box) => Math.abs(box.top - (boxes[0]?.top ?? 0)) <= 1);
    expect(firstRow.length).toBeGreaterThanOrEqual(2);
    for (const box of boxes) {
      expect(box.width).toBeGreaterThanOrEqual(300);
      expect(box.width).toBeLessThanOrEqual(600);
    }
  });

  test("the disabled Subscribe Free button is solid and readable, not a faded copy", async ({ page }) => {
    await page.goto("/downloads");
    const form = page.locator("form").filter({ has: page.getByRole("button", { name: "Subscribe Free" }) });
    const email = form.getByRole("textbox");
    await email.fill("a");
    await email.fill("");
    const button = form.getByRole("button", { name: "Subscribe Free" });
    await expect(button).toBeDisabled();
    const look = await button.evaluate((element) => {
      const style = getComputedStyle(element);
      return { opacity: style.opacity, color: style.color, background: style.backgroundColor };
    });
    expect(look.opacity).toBe("1");
    expect(contrast(look.color, look.background)).toBeGreaterThanOrEqual(4.5);
  });

  test("the blog's category list marks the one being read", async ({ page }) => {
    await page.goto("/blog");
    const categories = page.getByRole("navigation", { name: "Categories" });
    await expect(categories.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
    await categories.getByRole("link", { name: "Funding" }).click();
    await expect(page).toHaveURL(/\/blog\/category\/funding$/);
    const current = page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "Funding" });
    await expect(current).toHaveAttribute("aria-current", "page");
    const other = page.getByRole("navigation", { name: "Categories" }).getByRole("link", { name: "All" });
    await expect(other).not.toHaveAttribute("aria-current", "page");
    const background = (link: typeof current) => link.evaluate((element) => getComputedStyle(element).backgroundColor);
    // Seen, not only announced: the current one has a face of its own.
    expect(await background(current)).not.toBe(await background(other));
  });
});

test.describe("on a phone (390 × 844)", () => {
  test.use({ viewport: phone });

  test("the post's date line never ends with its separator", async ({ page }) => {
    await page.goto(await firstPostPath(page));
    const separators = page.locator("main article header [data-separator]");
    await expect(separators).toHaveCount(1);
    const lines = await separators.evaluateAll((elements) =>
      elements.map((separator) => {
        const next = separator.nextElementSibling;
        const box = separator.getBoundingClientRect();
        const after = next?.getBoundingClientRect();
        return { separator: box.top + box.height / 2, next: after ? after.top + after.height / 2 : Number.NaN };
      }),
    );
    // What follows the dot sits on the dot's own line.
    for (const line of lines) expect(Math.abs(line.next - line.separator)).toBeLessThanOrEqual(2);
  });

  test("the FEATURED badge leaves the featured post's cover clear", async ({ page }) => {
    await page.goto("/");
    const badge = page.locator("[data-featured-badge]");
    await expect(badge).toBeVisible();
    const card = page.locator("article").filter({ has: badge });
    const cover = card.locator("img, [aria-hidden='true'].aspect-\\[1200\\/630\\]").first();
    const [a, b] = [await badge.boundingBox(), await cover.boundingBox()];
    expect(a && b).toBeTruthy();
    if (!a || !b) return;
    const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps).toBe(false);
  });

  test("a demo post's cover holds its place while it loads: the title stays put when the picture arrives", async ({ page }) => {
    // The demo covers were once stored without their size: the cover took no room until it arrived,
    // then pushed the header down (docs/decisions/0048-post-cover-holds-its-place.md).
    const url = await demoPostUrl(page);
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/.netlify/images?**", async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(url, { waitUntil: "domcontentloaded" });
    const title = page.locator("main article h1");
    const cover = page.locator("[data-post-cover] img");
    const loaded = () => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0);
    await expect(title).toBeVisible();
    expect(await loaded(), "the cover is still on its way").toBe(false);
    const top = () => title.evaluate((element) => element.getBoundingClientRect().top);
    const before = await top();
    release();
    await expect.poll(loaded).toBe(true);
    // Within a pixel: width and height are whole pixels, so the ratio they give is rounded (890 × 467).
    expect(Math.abs((await top()) - before)).toBeLessThan(1);
  });
});

test.describe("the demo cover art", () => {
  test("is set in the heading face, edge to edge: no frame of its own inside the card's", async ({ page }) => {
    const fontUrl = await archivoBlackDataUrl();
    for (const art of demoArt) {
      await page.setViewportSize({ width: art.width, height: art.height });
      await page.setContent(demoArtHtml(art, fontUrl));
      await page.evaluate(() => document.fonts.ready);
      const drawn = await page.evaluate(() => {
        const title = document.querySelector("[data-art-title]") as HTMLElement;
        const borders = [...document.querySelectorAll("*")].filter((element) => Number.parseFloat(getComputedStyle(element).borderTopWidth) > 0);
        return {
          family: getComputedStyle(title).fontFamily,
          loaded: document.fonts.check(`400 40px "Archivo Black"`),
          borders: borders.length,
          background: getComputedStyle(document.body).backgroundColor,
        };
      });
      expect(drawn.family.split(",")[0]?.replace(/"/g, "").trim(), art.file).toBe("Archivo Black");
      expect(drawn.loaded, art.file).toBe(true);
      expect(drawn.borders, art.file).toBe(0);
      expect(drawn.background, art.file).toBe(rgb(tones[art.tone].background));
    }
  });

  test("on the site, the cover's corner is the art's colour, not a paper margin or a drawn frame", async ({ page }) => {
    await page.setViewportSize(desktop);
    // A demo post's own page: the home page's first cover is whatever post is newest (other specs add photos).
    await page.goto(await demoPostUrl(page));
    const cover = page.locator(`main img[alt="${demoPosts[0]?.coverAlt ?? ""}"]`).first();
    await cover.scrollIntoViewIfNeeded();
    await expect.poll(() => cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    const [corner, inside] = await cover.evaluate((image: HTMLImageElement) => {
      const canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      const context = canvas.getContext("2d") as CanvasRenderingContext2D;
      context.drawImage(image, 0, 0);
      const at = (x: number, y: number) => [...context.getImageData(x, y, 1, 1).data].slice(0, 3);
      return [at(2, 2), at(Math.round(image.naturalWidth * 0.75), Math.round(image.naturalHeight * 0.2))];
    });
    // The same colour at the very corner as well inside the picture: nothing framed in between.
    for (const [index, channel] of (corner ?? []).entries()) expect(Math.abs(channel - (inside?.[index] ?? 0))).toBeLessThanOrEqual(12);
  });
});

/** `#rrggbb` as the browser writes a computed colour. */
function rgb(hex: string): string {
  const [r, g, b] = [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
  return `rgb(${String(r)}, ${String(g)}, ${String(b)})`;
}

/** WCAG contrast ratio of two `rgb()`/`rgba()` colors (the background opaque). */
function contrast(foreground: string, background: string): number {
  const luminance = (color: string) => {
    const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map((part) => {
      const channel = Number(part) / 255;
      return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}
