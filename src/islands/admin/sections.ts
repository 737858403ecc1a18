/**
 * The dashboard's sections, in the sidebar's order. Each has its own address under the hidden
 * path (`/{ADMIN_PATH}/{value}`, a page built for each: src/pages/[adminPath]/[section].astro), so
 * the back button walks the sections and an email can link the owner straight to one (issue 41
 * point 6). Kept apart from the panels so the page's build reads it without React.
 */
export const adminSections = [
  { value: "posts", label: "Blog Posts" },
  { value: "comments", label: "Comments" },
  { value: "downloads", label: "Downloads" },
  { value: "subscribers", label: "Email Subscribers" },
  { value: "fediverse", label: "Fediverse" },
  { value: "sequences", label: "Sequences" },
  { value: "stats", label: "Stats" },
  { value: "revenue", label: "Revenue" },
  { value: "integrations", label: "Integrations" },
  { value: "settings", label: "Site Settings" },
  { value: "security", label: "Security" },
  { value: "moving", label: "Import & Backup" },
] as const;

export type AdminSection = (typeof adminSections)[number]["value"];

const sectionValues: ReadonlySet<string> = new Set(adminSections.map((section) => section.value));

export const isAdminSection = (value: string): value is AdminSection => sectionValues.has(value);

/**
 * Where the dashboard is and which section an address names: `/{admin}` or `/{admin}/` is the
 * dashboard's root (the first section), `/{admin}/stats` the Stats section. An unknown last part
 * is taken as part of the root (no section).
 */
export function sectionOfPath(pathname: string): { root: string; section: AdminSection | undefined } {
  const trimmed = pathname.replace(/\/+$/, "");
  const slash = trimmed.lastIndexOf("/");
  const last = trimmed.slice(slash + 1);
  if (slash > 0 && isAdminSection(last)) return { root: trimmed.slice(0, slash), section: last };
  return { root: trimmed, section: undefined };
}

/** The address of a section under the dashboard's root. */
export const sectionPath = (root: string, section: AdminSection): string => `${root}/${section}`;
