/** The heading resources without a category are listed under (SPEC §2). */
export const otherCategory = "Other";

export interface CategoryGroup<T> {
  category: string;
  items: T[];
}

/**
 * Resources grouped by category, groups in the order their first item appears (the list comes
 * newest first) and "Other" — blank or missing categories — last.
 */
export function groupByCategory<T extends { category: string | null | undefined }>(items: readonly T[]): CategoryGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const category = item.category?.trim() || otherCategory;
    const group = groups.get(category);
    if (group) group.push(item);
    else groups.set(category, [item]);
  }
  const other = groups.get(otherCategory);
  groups.delete(otherCategory);
  const result = [...groups].map(([category, grouped]) => ({ category, items: grouped }));
  return other ? [...result, { category: otherCategory, items: other }] : result;
}

export type DownloadIcon = "checklist" | "template" | "guide" | "default";

/** Which icon a category heading gets (SPEC §9: checklist, template, guide, default). */
export function downloadIcon(category: string): DownloadIcon {
  const name = category.toLowerCase();
  if (name.includes("checklist")) return "checklist";
  if (name.includes("template")) return "template";
  if (name.includes("guide")) return "guide";
  return "default";
}

/** "1 download", "412 downloads". */
export function downloadCountLabel(count: number): string {
  return `${count.toLocaleString("en-US")} ${count === 1 ? "download" : "downloads"}`;
}
