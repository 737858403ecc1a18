import { useQuery } from "@tanstack/react-query";
import { buildStatusTexts } from "../../core/publishing/build-status.schema.ts";
import { queries } from "./query-client.ts";

/** While the site is behind the content, the status is read again this often (only then). */
const behindRefreshMs = 5000;

/**
 * Whether the public site shows the latest content: "Live", or while a build is on its way or the
 * build hook keeps failing, says so with the hook's last error. The one query the dashboard reads
 * again on its own, and only until the site is live: a build finishes without the owner's hands.
 */
export default function SiteBuildStatus() {
  const status = useQuery({
    ...queries.siteBuild,
    refetchInterval: (query) => (query.state.data && query.state.data.state !== "live" ? behindRefreshMs : false),
  });
  if (!status.data) return null;
  const { state, lastError } = status.data;
  return (
    <p role="status" className="text-sm" data-build-state={state}>
      <span className={state === "live" ? "font-bold" : "bg-signal-dark px-2 font-bold text-paper"}>{buildStatusTexts[state]}</span>
      {state === "retrying" && lastError && <span className="ml-2 opacity-90">Last error: {lastError}</span>}
    </p>
  );
}
