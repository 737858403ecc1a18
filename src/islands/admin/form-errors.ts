import type { z } from "zod";

/** Field name → the first message for it; `""` holds errors that belong to no one field. */
export type FieldErrors = Partial<Record<string, string>>;

/**
 * Checks `values` with the same schema the server uses, so the form shows exactly the messages
 * the API would answer with — before anything is sent.
 */
export function validateForm<S extends z.ZodType>(schema: S, values: unknown): { ok: true; data: z.output<S> } | { ok: false; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { ok: true, data: result.data };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const field = String(issue.path[0] ?? "");
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

/** A text field's value from a submitted form ("" when absent). */
export function formText(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === "string" ? value : "";
}

/** Moves focus to the form's first invalid control once React has marked it (after this event). */
export function focusFirstInvalid(formId: string): void {
  setTimeout(() => document.querySelector<HTMLElement>(`#${formId} [aria-invalid="true"]`)?.focus(), 0);
}

/**
 * The messages after `field` changed: its message is dropped once the field holds (or replaced by
 * what is still wrong with it); the other fields' messages wait for their own change, and the
 * form's own (`""`, the server's words) for the next submit. Nothing new appears while typing:
 * only a submit shows a message first.
 */
export function recheckField(shown: FieldErrors, field: string, found: FieldErrors): FieldErrors {
  if (shown[field] === undefined) return shown;
  const next = { ...shown, [field]: found[field] };
  if (found[field] === undefined) delete next[field];
  return next;
}

/**
 * A form's `onChange`: re-checks the control that changed (by its `name`) with `check`, the same
 * check its submit runs, so a message leaves as soon as its field is fixed.
 */
export function recheckOnChange(
  setErrors: (update: (shown: FieldErrors) => FieldErrors) => void,
  check: (form: HTMLFormElement) => FieldErrors,
): (event: { target: EventTarget; currentTarget: HTMLFormElement }) => void {
  return (event) => {
    const field = event.target instanceof HTMLElement ? event.target.getAttribute("name") : null;
    if (!field) return;
    const found = check(event.currentTarget);
    setErrors((shown) => recheckField(shown, field, found));
  };
}
