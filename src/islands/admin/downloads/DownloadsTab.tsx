import { downloadsRoutes } from "../../../api/routes/downloads.routes.ts";
import type { AdminDownload } from "../../../core/downloads/download.schema.ts";
import { callApi } from "../api-client.ts";
import { queries } from "../query-client.ts";
import { toastTexts } from "../toasts.ts";
import { ListAndForm } from "../ui/ListAndForm.tsx";
import DownloadForm from "./DownloadForm.tsx";
import DownloadList from "./DownloadList.tsx";

/** Downloads: the resource form (upload, or edit the chosen one) and the list of resources; payments have their own section, Revenue. */
export default function DownloadsTab() {
  return (
    <ListAndForm<AdminDownload>
      list={queries.downloads}
      remove={(download) => callApi(downloadsRoutes.remove, { params: { id: download.id } })}
      deleted={toastTexts.downloadDeleted}
      deleteFailed="Failed to delete downloadable resource."
      formId="admin-download-form"
      Form={DownloadForm}
      List={DownloadList}
    />
  );
}
