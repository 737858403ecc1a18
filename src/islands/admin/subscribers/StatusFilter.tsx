import { subscriberStatuses, type SubscriberStatus } from "../../../core/subscribers/subscriber.schema.ts";

export type StatusChoice = SubscriberStatus | "all";

export const statusLabels: Record<SubscriberStatus, string> = {
  pending: "Pending",
  active: "Active",
  unsubscribed: "Unsubscribed",
  bounced: "Bounced",
  complained: "Complained",
};

interface Props {
  value: StatusChoice;
  counts: Record<StatusChoice, number>;
  onChange: (value: StatusChoice) => void;
}

/** Which subscribers the list shows, with how many each choice holds: native radios, so arrow keys move between them. */
export function StatusFilter({ value, counts, onChange }: Props) {
  const choices: { value: StatusChoice; label: string }[] = [
    { value: "all", label: "All" },
    ...subscriberStatuses.map((status) => ({ value: status, label: statusLabels[status] })),
  ];
  return (
    <fieldset className="mt-4 flex flex-wrap items-center gap-2">
      <legend className="sr-only">Show subscribers</legend>
      {choices.map((choice) => (
        <label key={choice.value} className={`admin-filter ${value === choice.value ? "admin-filter-on" : ""}`}>
          <input
            type="radio"
            name="subscriber-status"
            value={choice.value}
            checked={value === choice.value}
            onChange={() => onChange(choice.value)}
            className="sr-only"
          />
          {choice.label} <span className="font-sans">({counts[choice.value].toLocaleString("en-US")})</span>
        </label>
      ))}
    </fieldset>
  );
}
