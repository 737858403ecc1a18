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

const escapes: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => escapes[char] ?? char);
}

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
