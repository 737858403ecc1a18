/** Demo resources for a fresh local site: one per category, each with a real file. */
export interface DemoResource {
  title: string;
  description: string;
  category: "Templates" | "Checklists" | "Guides" | "Tools";
  /** File in ./files; also the name the visitor downloads. */
  fileName: string;
  contentType: string;
  /** Thumbnail image file name in ./files. */
  thumbnail: string;
  /** The thumbnail's alt text (issue 33). */
  thumbnailAlt: string;
  downloadCount: number;
}

export const demoResources: DemoResource[] = [
  {
    title: "Investor Pitch Checklist",
    description: "Every box to tick before you book the meeting: the story, the numbers, the ask and the room. One page, no fluff.",
    category: "Checklists",
    fileName: "investor-pitch-checklist.pdf",
    contentType: "application/pdf",
    thumbnail: "thumb-investor-pitch-checklist.png",
    thumbnailAlt: "Red checklist card: Investor Pitch Checklist",
    downloadCount: 412,
  },
  {
    title: "Cold Email Templates That Get Replies",
    description: "Five short emails for customers, investors and mentors, with the rules that make them work. Copy, fill the brackets, send.",
    category: "Templates",
    fileName: "cold-email-templates.docx",
    contentType: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    thumbnail: "thumb-cold-email-templates.png",
    thumbnailAlt: "Violet template card: Cold Email Templates",
    downloadCount: 287,
  },
  {
    title: "Cash Flow Forecast",
    description: "The spreadsheet we run the company on: cash in, cash out, closing balance and runway, with the formulas already in.",
    category: "Tools",
    fileName: "cash-flow-forecast.xlsx",
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    thumbnail: "thumb-cash-flow-forecast.png",
    thumbnailAlt: "Amber tool card: Cash Flow Forecast",
    downloadCount: 356,
  },
  {
    title: "Founder Starter Kit",
    description: "A week-one checklist, a one-page plan and a 20-minute weekly review, in plain text you can keep anywhere.",
    category: "Guides",
    fileName: "founder-starter-kit.zip",
    contentType: "application/zip",
    thumbnail: "thumb-founder-starter-kit.png",
    thumbnailAlt: "Slate guide card: Founder Starter Kit",
    downloadCount: 198,
  },
];
