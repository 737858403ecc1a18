import type { SubmitEvent, ReactNode } from "react";
import { focusFirstInvalid, recheckOnChange, type FieldErrors } from "../form-errors.ts";

interface Props {
  /** The form element's id (the list scrolls to it when an item is chosen for editing). */
  formId: string;
  title: string;
  errors: FieldErrors;
  setErrors: (update: FieldErrors | ((shown: FieldErrors) => FieldErrors)) => void;
  /** What is wrong with the form's values now: run on each change and before a submit, one check for both. */
  problems: (form: HTMLFormElement) => FieldErrors;
  /** After a submit whose check found something (the fields show it and the first one has focus). */
  onInvalid?: (problems: FieldErrors) => void;
  /** After a submit whose check found nothing: send it. */
  onValid: (form: HTMLFormElement) => void;
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  /** The submit is off for another reason too (an image still being scaled down). */
  busy?: boolean;
  /** Shown while editing: back to an empty form. */
  cancel?: { label: string; onCancel: () => void };
  children: ReactNode;
}

/**
 * The chrome every dashboard item form shares (posts and resources, issue 38 point 4): the card and
 * its title, a `noValidate` form checked by one function on change and on submit, the first invalid
 * field focused, the server's own words above the fields, and the save and cancel buttons.
 */
export function ItemFormCard({
  formId,
  title,
  errors,
  setErrors,
  problems,
  onInvalid,
  onValid,
  submitLabel,
  pendingLabel,
  pending,
  busy = false,
  cancel,
  children,
}: Props) {
  const titleId = `${formId}-title`;
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = problems(event.currentTarget);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      onInvalid?.(found);
      focusFirstInvalid(formId);
      return;
    }
    onValid(event.currentTarget);
  };

  return (
    <section aria-labelledby={titleId} className="card p-5">
      <h2 id={titleId} className="section-title text-2xl">
        {title}
      </h2>
      <form id={formId} onSubmit={submit} onChange={recheckOnChange(setErrors, problems)} noValidate className="mt-4 space-y-4">
        {errors[""] && (
          <p role="alert" className="border-3 border-signal-dark p-3 text-sm font-semibold text-signal-dark">
            {errors[""]}
          </p>
        )}
        {children}
        <div className="flex flex-wrap gap-3">
          <button type="submit" className="btn" disabled={pending || busy}>
            {pending ? pendingLabel : submitLabel}
          </button>
          {cancel && (
            <button type="button" className="btn btn-light" onClick={cancel.onCancel}>
              {cancel.label}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
