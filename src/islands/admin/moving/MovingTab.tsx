import { BackupPanel } from "./BackupPanel.tsx";
import { ImportPanel } from "./ImportPanel.tsx";

/** The Import & Backup tab: moving in (an import from another blog) and moving out (backups, restore). */
export default function MovingTab() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ImportPanel />
      <BackupPanel />
    </div>
  );
}
