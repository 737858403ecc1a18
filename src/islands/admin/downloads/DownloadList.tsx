import type { AdminDownload } from "../../../core/downloads/download.schema.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { Icon } from "../ui/icons.tsx";
import type { ItemListProps } from "../ui/ListAndForm.tsx";
import { ListState } from "../ui/ListState.tsx";

const countLabel = (count: number) => `${count.toLocaleString("en-US")} ${count === 1 ? "download" : "downloads"}`;

/** The resources on offer, with how often each was downloaded. */
export default function DownloadList({ items: downloads, loading, error, editingId, onEdit, onDelete }: ItemListProps<AdminDownload>) {
  return (
    <section aria-labelledby="resources-title" className="card p-5">
      <h2 id="resources-title" className="section-title text-2xl">
        Resources
      </h2>
      <ListState loading={loading} error={error} empty={downloads?.length === 0} emptyText="No resources yet. Upload your first one!" />
      {downloads && downloads.length > 0 && (
        <ul className="admin-scroll mt-4 space-y-3" aria-label="Resources" tabIndex={0}>
          {downloads.map((download) => (
            <li key={download.id} className={`border-3 border-ink p-3 ${editingId === download.id ? "bg-amber/20" : "bg-white"}`}>
              <div className="flex items-start justify-between gap-3">
                <h3 className="min-w-0 break-words font-bold leading-snug">{download.title}</h3>
                <div className="flex shrink-0 gap-2">
                  <button
                    type="button"
                    className="admin-icon-button"
                    aria-label={`Edit ${download.title}`}
                    title="Edit"
                    onClick={() => onEdit(download)}
                  >
                    <Icon name="edit" />
                  </button>
                  <ConfirmButton
                    label={`Delete ${download.title}`}
                    title="Delete this resource?"
                    description={`“${download.title}” and its file will be removed from the site. This cannot be undone.`}
                    confirmLabel="Delete Resource"
                    onConfirm={() => onDelete(download)}
                  >
                    <Icon name="trash" />
                  </ConfirmButton>
                </div>
              </div>
              <p className="mt-1 text-sm">{download.description}</p>
              <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                <span className="admin-badge">{download.category}</span>
                {download.price > 0 && (
                  <span className="admin-badge">
                    {new Intl.NumberFormat("en", { style: "currency", currency: download.currency.toUpperCase() }).format(download.price / 100)}
                  </span>
                )}
                <span>{countLabel(download.downloadCount)}</span>
                <span className="break-all text-slate">{download.fileName}</span>
                {download.thumbnailUrl && download.thumbnailAlt === null && <span className="admin-badge">No alt text yet</span>}
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
