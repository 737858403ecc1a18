import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { AdminDownload } from "../../../core/downloads/downloads.service.ts";
import { api } from "../api-client.ts";
import { queryKeys } from "../query-client.ts";
import { showErrorToast, showToast, toastTexts } from "../toasts.ts";
import DownloadForm from "./DownloadForm.tsx";
import DownloadList from "./DownloadList.tsx";

/** Downloads: the resource form (upload, or edit the chosen one) and the list of resources. */
export default function DownloadsTab() {
  const queryClient = useQueryClient();
  const downloads = useQuery<AdminDownload[]>({ queryKey: queryKeys.downloads });
  const [editing, setEditing] = useState<AdminDownload | null>(null);
  const [formVersion, setFormVersion] = useState(0);

  const remove = useMutation({
    mutationFn: (download: AdminDownload) => api(`/api/downloads/${String(download.id)}`, { method: "DELETE" }),
    onSuccess: (_, download) => {
      showToast(toastTexts.downloadDeleted);
      if (editing?.id === download.id) setEditing(null);
      void queryClient.invalidateQueries({ queryKey: queryKeys.downloads });
    },
    onError: () => showErrorToast("Failed to delete downloadable resource."),
  });

  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)]">
      <DownloadForm
        // A fresh form after each save or cancel: create mode, empty fields.
        key={`${String(editing?.id ?? "new")}-${String(formVersion)}`}
        editing={editing}
        onDone={() => {
          setEditing(null);
          setFormVersion((version) => version + 1);
          void queryClient.invalidateQueries({ queryKey: queryKeys.downloads });
        }}
        onCancel={() => setEditing(null)}
      />
      <DownloadList
        downloads={downloads.data}
        loading={downloads.isPending}
        error={downloads.error}
        editingId={editing?.id ?? null}
        onEdit={(download) => {
          setEditing(download);
          document.getElementById("admin-download-form")?.scrollIntoView({ block: "start" });
        }}
        onDelete={(download) => remove.mutate(download)}
      />
    </div>
  );
}
