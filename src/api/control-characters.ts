import { ValidationError } from "../core/errors.ts";

/** C0 controls and DEL, except tab, line feed and carriage return (multi-line text keeps those). */
const controlCharacter = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

/**
 * Refuses any text in `value` (a JSON body, form fields, query or path values) that carries a control
 * character: 400 naming the field, before any schema or the database sees it (a NUL in a username
 * used to reach PostgreSQL, which refuses it with a 500).
 */
export function refuseControlCharacters(value: unknown, field = ""): void {
  if (typeof value === "string") {
    if (controlCharacter.test(value)) throw new ValidationError(`${field || "The request"}: control characters are not allowed`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => refuseControlCharacters(item, field ? `${field}[${String(index)}]` : `[${String(index)}]`));
    return;
  }
  if (value && typeof value === "object" && !(value instanceof Blob)) {
    for (const [name, item] of Object.entries(value)) {
      refuseControlCharacters(name, field);
      refuseControlCharacters(item, field ? `${field}.${name}` : name);
    }
  }
}
