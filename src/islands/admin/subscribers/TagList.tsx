import type { SubscriberTagUse } from "../../../core/subscribers/subscriber-tags.schema.ts";
import { formatLongDate } from "../../../lib/format-date.ts";

const why: Record<SubscriberTagUse["source"], string> = {
  signup: "Signup",
  download: "Download",
  import: "Import",
  poll: "Poll answer",
  payment: "Payment",
  owner: "You",
};

/** A person's tags, each with why and when it was set. */
export function TagList({ tags }: { tags: SubscriberTagUse[] }) {
  if (tags.length === 0) return <span className="text-slate">—</span>;
  return (
    <ul className="flex flex-col gap-1" aria-label="Tags">
      {tags.map((use) => (
        <li key={use.tag} data-tag={use.tag}>
          <span className="admin-badge font-mono normal-case">{use.tag}</span>{" "}
          <span className="text-xs text-slate">
            {why[use.source]}: {use.detail}, {formatLongDate(use.setAt)}
          </span>
        </li>
      ))}
    </ul>
  );
}
