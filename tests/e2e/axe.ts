import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";

export interface AxeScan {
  /** CSS selectors to scan (default: the whole page). */
  include?: string[];
  /** CSS selectors to leave out, e.g. an email's iframe. */
  exclude?: string[];
  /** "serious": the serious and critical violations only (the default); "any": every one, minor included. */
  impact?: "serious" | "any";
}

/** Runs axe on `page` and returns its violations one line each: the rule, its impact and help, and where. */
export async function axeViolations(page: Page, { include = [], exclude = [], impact = "serious" }: AxeScan = {}): Promise<string[]> {
  const builder = new AxeBuilder({ page });
  for (const selector of include) builder.include(selector);
  for (const selector of exclude) builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations
    .filter((violation) => impact === "any" || violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${String(violation.impact)}): ${violation.help} (${violation.nodes.map((node) => node.target.join(" ")).join(", ")})`,
    );
}
