import { useQuery } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { segmentsRoutes } from "../../../api/routes/segments.routes.ts";
import { callApi } from "../api-client.ts";

/** What a send goes to: everyone, a saved segment (its id) or an expression (docs/segments.md). */
export type Audience = { kind: "everyone" } | { kind: "saved"; id: number | null } | { kind: "expression"; text: string };

/** The `segment` a send or a count is asked with; null while the choice is not complete. */
export function audienceSegment(audience: Audience): string | number | undefined | null {
  if (audience.kind === "everyone") return undefined;
  if (audience.kind === "saved") return audience.id;
  return audience.text.trim() === "" ? null : audience.text;
}

/** How long typing pauses before the count is asked again. */
const typingPauseMs = 300;

/**
 * The count for an audience, asked of the server (the rule the send itself uses): the number, or
 * the grammar's message for a mistake. Undefined while it is asked or the choice is incomplete.
 */
export function useAudienceCount(audience: Audience): {
  count: number | undefined;
  error: string | null;
  segment: string | number | undefined | null;
} {
  const segment = audienceSegment(audience);
  const [settled, setSettled] = useState(segment);
  useEffect(() => {
    if (typeof segment !== "string") {
      setSettled(segment);
      return;
    }
    const timer = setTimeout(() => setSettled(segment), typingPauseMs);
    return () => clearTimeout(timer);
  }, [segment]);
  const count = useQuery({
    queryKey: [segmentsRoutes.audience.path, settled ?? "everyone"],
    queryFn: () => callApi(segmentsRoutes.audience, { body: settled === undefined ? {} : { segment: settled as string | number } }),
    enabled: settled !== null && settled === segment,
    retry: false,
  });
  const current = settled === segment && segment !== null;
  return { count: current ? count.data?.count : undefined, error: current && count.error ? count.error.message : null, segment };
}

/** The audience choice of the send panel: everyone, a saved segment, or an expression, with the exact count. */
export function AudiencePicker({ audience, onChange }: { audience: Audience; onChange: (audience: Audience) => void }) {
  const id = useId();
  const saved = useQuery({ queryKey: [segmentsRoutes.list.path], queryFn: () => callApi(segmentsRoutes.list) });
  const choice = (kind: Audience["kind"], label: string) => (
    <label className="flex items-center gap-2">
      <input
        type="radio"
        name={`${id}-audience`}
        value={kind}
        checked={audience.kind === kind}
        onChange={() => onChange(kind === "everyone" ? { kind } : kind === "saved" ? { kind, id: saved.data?.[0]?.id ?? null } : { kind, text: "" })}
      />
      {label}
    </label>
  );
  return (
    <fieldset className="mb-3" aria-describedby={`${id}-hint`}>
      <legend className="block text-sm font-bold uppercase tracking-wide">Audience</legend>
      <div className="mt-1 space-y-1 text-sm">
        {choice("everyone", "Everyone")}
        {choice("saved", "A saved segment")}
        {audience.kind === "saved" &&
          (saved.data && saved.data.length > 0 ? (
            <select
              aria-label="Saved segment"
              className="admin-input sm:max-w-xs"
              value={audience.id ?? ""}
              onChange={(event) => onChange({ kind: "saved", id: Number(event.target.value) })}
            >
              {saved.data.map((segment) => (
                <option key={segment.id} value={segment.id}>
                  {segment.name}
                </option>
              ))}
            </select>
          ) : (
            <p className="text-slate">{saved.isPending ? "Loading the saved segments…" : "No saved segment yet."}</p>
          ))}
        {choice("expression", "An expression")}
        {audience.kind === "expression" && (
          <input
            aria-label="Segment expression"
            className="admin-input font-mono sm:max-w-md"
            placeholder="follows funding OR tag downloaded:pitch-deck, NOT tag vip"
            value={audience.text}
            onChange={(event) => onChange({ kind: "expression", text: event.target.value })}
          />
        )}
      </div>
      <p id={`${id}-hint`} className="mt-1 text-sm text-slate">
        Only active subscribers on every-post emails: weekly readers get the post in their digest. Expressions: follows &lt;topic&gt;, everything, tag
        &lt;tag&gt;, AND, OR, NOT and parentheses.
      </p>
    </fieldset>
  );
}
