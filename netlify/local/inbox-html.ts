import { escapeHtml } from "../../src/core/shared/escape-html.ts";
/** Markup whose text parts were escaped when it was put together. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

type Part = SafeHtml | string | number | undefined | false | Part[];

function render(part: Part): string {
  if (part instanceof SafeHtml) return part.value;
  if (Array.isArray(part)) return part.map(render).join("");
  if (part === undefined || part === false) return "";
  return escapeHtml(String(part));
}

/**
 * A template tag for the local inbox pages: every interpolated value is escaped unless it is
 * already `SafeHtml` (a nested `html\`…\``), so a subject or an address can never become markup.
 */
export function html(strings: TemplateStringsArray, ...values: Part[]): SafeHtml {
  return new SafeHtml(strings.reduce((out, string, index) => out + string + (index < values.length ? render(values[index]) : ""), ""));
}
