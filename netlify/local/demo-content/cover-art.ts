/**
 * The demo covers and thumbnails, drawn as HTML in the brand (issue 33): the heading face (Archivo
 * Black), uppercase, the category's colour edge to edge. No frame of its own: the site's cards
 * and the post page already frame every cover, so the art is the picture only. The PNGs in
 * ./files are this page screenshotted (`node tests/support/draw-demo-art.ts`); the layout browser
 * test renders it to hold the face and the missing frame.
 */
export interface DemoArt {
  /** The PNG in ./files. */
  file: string;
  width: number;
  height: number;
  label: string;
  title: string;
  tone: keyof typeof tones;
}

/** BRAND.md's category colours, each with a text colour that reads on it. */
export const tones = {
  red: { background: "#e11d2e", text: "#fafaf7" },
  amber: { background: "#f59e0b", text: "#0a0a0a" },
  violet: { background: "#7c3aed", text: "#fafaf7" },
  slate: { background: "#374151", text: "#fafaf7" },
} as const;

export const demoArt: DemoArt[] = [
  {
    file: "cover-first-customer.png",
    width: 1200,
    height: 630,
    label: "Entrepreneurship",
    title: "Your first ten customers won't come from your website",
    tone: "red",
  },
  { file: "cover-runway-math.png", width: 1200, height: 630, label: "Cash Flow", title: "Profit is an opinion. Cash is a fact.", tone: "amber" },
  {
    file: "cover-pre-seed-round.png",
    width: 1200,
    height: 630,
    label: "Funding",
    title: "What 47 investor nos taught us about our pre-seed",
    tone: "slate",
  },
  {
    file: "cover-founder-fear.png",
    width: 1200,
    height: 630,
    label: "Mindset",
    title: "The fear doesn't leave. You just get used to working next to it.",
    tone: "red",
  },
  { file: "thumb-investor-pitch-checklist.png", width: 600, height: 400, label: "Checklist", title: "Investor pitch checklist", tone: "red" },
  { file: "thumb-cold-email-templates.png", width: 600, height: 400, label: "Template", title: "Cold email templates", tone: "violet" },
  { file: "thumb-cash-flow-forecast.png", width: 600, height: 400, label: "Tool", title: "Cash flow forecast", tone: "amber" },
  { file: "thumb-founder-starter-kit.png", width: 600, height: 400, label: "Guide", title: "Founder starter kit", tone: "slate" },
];

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** One piece of art as a page of exactly its size; `fontUrl` is Archivo Black's woff2. */
export function demoArtHtml(art: DemoArt, fontUrl: string): string {
  const tone = tones[art.tone];
  const unit = art.width / 1200;
  const titleSize = Math.round((art.width >= 1200 ? 76 : 96) * unit * (art.title.length > 40 ? 0.92 : 1));
  return `<!doctype html><html><head><meta charset="utf-8"><style>
@font-face { font-family: "Archivo Black"; src: url("${fontUrl}") format("woff2"); font-display: block; }
html, body { margin: 0; width: ${String(art.width)}px; height: ${String(art.height)}px; overflow: hidden; }
body { background: ${tone.background}; color: ${tone.text}; font-family: "Archivo Black", sans-serif; text-transform: uppercase;
  box-sizing: border-box; padding: ${String(Math.round(56 * unit))}px; display: flex; flex-direction: column; justify-content: space-between; }
.label { align-self: flex-start; background: #0a0a0a; color: #fafaf7; font-size: ${String(Math.round(26 * unit * (art.width < 1200 ? 1.6 : 1)))}px;
  letter-spacing: 0.04em; padding: 0.25em 0.6em; line-height: 1.2; }
h1 { margin: 0; font-weight: 400; font-size: ${String(titleSize)}px; line-height: 0.98; letter-spacing: -0.01em; max-width: 92%; }
.mark { align-self: flex-end; background: #0a0a0a; color: #fafaf7; font-size: ${String(Math.round(28 * unit * (art.width < 1200 ? 1.6 : 1)))}px;
  padding: 0.3em 0.45em; line-height: 1; }
</style></head><body><span class="label" data-art-label>${escape(art.label)}</span><h1 data-art-title>${escape(art.title)}</h1><span class="mark" aria-hidden="true">NF</span></body></html>`;
}
