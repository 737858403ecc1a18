import { useState } from "react";
import { decorativeLabel, maxAltLength, missingAlt } from "../../../core/shared/image-alt.schema.ts";
import { formText } from "../form-errors.ts";
import { Field } from "../ui/Field.tsx";

/** The hint under every alt-text field: what to write, and what never to. */
export const altHint = "What the image shows, for readers who can't see it (not the file name). Or tick decorative if it adds nothing.";

interface Props {
  /** The text field's name; the checkbox is `${decorativeName}`. */
  name: string;
  decorativeName: string;
  idPrefix?: string;
  label: string;
  /** The stored alt: words, "" (decorative) or null (not described yet). */
  stored: string | null | undefined;
  error?: string | undefined;
}

/**
 * An image's alt text, or the explicit "decorative" mark that stores `alt=""` (issue 33, point 5).
 * Uncontrolled, read from the form's data like the other fields; ticking decorative empties and
 * disables the text, so the form sends one or the other.
 */
export function ImageAltFields({ name, decorativeName, idPrefix = "admin", label, stored, error }: Props) {
  const [decorative, setDecorative] = useState(stored === "");
  const hint = stored === null ? `${altHint} This image has no alt text yet.` : altHint;
  return (
    <div className="space-y-2">
      <Field label={label} name={name} idPrefix={idPrefix} error={decorative ? undefined : error} hint={hint}>
        {(props) => (
          <input
            {...props}
            type="text"
            maxLength={maxAltLength}
            disabled={decorative}
            defaultValue={stored ?? ""}
            placeholder={decorative ? "" : "e.g. A founder counting receipts at a kitchen table"}
            className="admin-input"
          />
        )}
      </Field>
      <label className="flex items-center gap-2 font-semibold">
        <input
          type="checkbox"
          name={decorativeName}
          checked={decorative}
          onChange={(event) => setDecorative(event.target.checked)}
          className="size-5 accent-signal-dark"
        />
        {decorativeLabel}
      </label>
    </div>
  );
}

/** The alt fields as a form holds them: `undefined` text when empty, the checkbox as a boolean. */
export function altValues(data: FormData, name: string, decorativeName: string): { alt: string | undefined; decorative: boolean; missing: boolean } {
  const alt = formText(data, name).trim() || undefined;
  const decorative = data.get(decorativeName) === "on";
  return { alt, decorative, missing: missingAlt(alt, decorative) };
}
