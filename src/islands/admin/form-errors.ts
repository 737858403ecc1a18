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
