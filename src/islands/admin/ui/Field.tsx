import type { ReactNode } from "react";

/** What a field's control needs to be labelled and described by its error. */
export interface ControlProps {
  id: string;
  name: string;
  "aria-invalid": boolean;
  "aria-describedby": string | undefined;
}

interface Props {
  label: string;
  name: string;
  error?: string | undefined;
  /** A hint under the control (e.g. what leaving it empty means). */
  hint?: ReactNode;
  /** The id prefix, when the same form could be on the page twice. */
  idPrefix?: string;
  children: (props: ControlProps) => ReactNode;
}

/** A labelled form control with its hint and its error message, wired for screen readers. */
export function Field({ label, name, error, hint, idPrefix = "admin", children }: Props) {
  const id = `${idPrefix}-${name}`;
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-bold uppercase tracking-wide">
        {label}
      </label>
      <div className="mt-1">{children({ id, name, "aria-invalid": Boolean(error), "aria-describedby": describedBy })}</div>
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
    </div>
  );
}
