import type { TaggedSubscriber } from "../../../core/subscribers/subscriber-tags.schema.ts";
import { formatLongDate } from "../../../lib/format-date.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import { statusLabels } from "./StatusFilter.tsx";
import { TagList } from "./TagList.tsx";

interface Props {
  subscribers: TaggedSubscriber[];
  onExport: (subscriber: TaggedSubscriber) => void;
  onErase: (subscriber: TaggedSubscriber) => void;
  /** Ends the person's reader sessions on every browser (issue 44). */
  onSignOut: (subscriber: TaggedSubscriber) => void;
  /** The subscriber whose export is on its way (its button waits). */
  exportingId: number | undefined;
}

/** The subscribers, one line each, with each person's export, reader sign-out and erase. */
export function SubscriberTable({ subscribers, onExport, onErase, onSignOut, exportingId }: Props) {
  // Bounced and complained people get nothing: the list says why, and since when.
  const showWhy = subscribers.some((subscriber) => subscriber.statusReason);
  return (
    <div className="admin-scroll mt-4 overflow-x-auto" tabIndex={0} role="region" aria-label="Subscriber list">
      {/* Rows keep one line each; on a phone the list scrolls sideways instead of breaking emails apart. */}
      <table className="admin-table whitespace-nowrap">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Status</th>
            <th scope="col">Subscribed</th>
            <th scope="col">Source</th>
            <th scope="col">Tags</th>
            {showWhy && <th scope="col">Why nothing is sent</th>}
            <th scope="col">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {subscribers.map((subscriber) => (
            <tr key={subscriber.id}>
              <td>{subscriber.email}</td>
              <td>
                <span className={`admin-badge admin-status-${subscriber.status}`}>{statusLabels[subscriber.status]}</span>
              </td>
              <td>{formatLongDate(subscriber.subscribedAt)}</td>
              <td>{subscriber.source}</td>
              <td className="whitespace-normal text-sm">
                <TagList tags={subscriber.tags} />
              </td>
              {showWhy && (
                <td className="min-w-64 whitespace-normal text-sm" data-status-reason>
                  {subscriber.statusChangedAt && <span className="font-semibold">{formatLongDate(subscriber.statusChangedAt)}: </span>}
                  {subscriber.statusReason}
                </td>
              )}
              <td>
                <div className="flex justify-end gap-2">
                  <button
                    type="button"
                    className="admin-icon-button"
                    aria-label={`Export ${subscriber.email}`}
                    title="Export everything held (JSON)"
                    disabled={exportingId === subscriber.id}
                    onClick={() => onExport(subscriber)}
                  >
                    <Icon name="download" />
                  </button>
                  <button
                    type="button"
                    className="admin-icon-button px-2 text-sm"
                    aria-label={`Sign ${subscriber.email} out`}
                    title="End their reader sessions on every browser"
                    onClick={() => onSignOut(subscriber)}
                  >
                    Sign out
                  </button>
                  <ConfirmButton
                    label={`Erase ${subscriber.email}`}
                    title={`Erase ${subscriber.email}?`}
                    description="Their address, consent record and email history are deleted for good. This cannot be undone."
                    confirmLabel="Erase Subscriber"
                    onConfirm={() => onErase(subscriber)}
                  >
                    <Icon name="trash" />
                  </ConfirmButton>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
