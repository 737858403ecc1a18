import { describe, expect, it } from "vitest";
import { downloadCountLabel, downloadIcon, groupByCategory } from "./group-downloads.ts";

describe("groupByCategory", () => {
  it("groups in order of first appearance, keeping item order", () => {
    const groups = groupByCategory([
      { id: 1, category: "Templates" },
      { id: 2, category: "Checklists" },
      { id: 3, category: "Templates" },
    ]);
    expect(groups).toEqual([
      {
        category: "Templates",
        items: [
          { id: 1, category: "Templates" },
          { id: 3, category: "Templates" },
        ],
      },
      { category: "Checklists", items: [{ id: 2, category: "Checklists" }] },
    ]);
  });

  it("puts missing or blank categories under Other, last", () => {
    const groups = groupByCategory([
      { id: 1, category: "" },
      { id: 2, category: null },
      { id: 3, category: "Guides" },
      { id: 4, category: "  " },
    ]);
    expect(groups.map((group) => [group.category, group.items.map((item) => item.id)])).toEqual([
      ["Guides", [3]],
      ["Other", [1, 2, 4]],
    ]);
  });

  it("gives no groups for no items", () => {
    expect(groupByCategory([])).toEqual([]);
  });
});

describe("downloadIcon", () => {
  it("picks the icon by category name", () => {
    expect(downloadIcon("Checklists")).toBe("checklist");
    expect(downloadIcon("Templates")).toBe("template");
    expect(downloadIcon("Guides")).toBe("guide");
    expect(downloadIcon("Tools")).toBe("default");
    expect(downloadIcon("Other")).toBe("default");
  });
});

describe("downloadCountLabel", () => {
  it("counts with a thousands separator and the right plural", () => {
    expect(downloadCountLabel(1)).toBe("1 download");
    expect(downloadCountLabel(0)).toBe("0 downloads");
    expect(downloadCountLabel(12345)).toBe("12,345 downloads");
  });
});
