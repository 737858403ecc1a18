import { useEffect, useState } from "react";
import { downloadCountLabel } from "../../lib/group-downloads.ts";
import { countEventName, refreshCounts, type CountUpdate } from "./download-count.ts";

interface Props {
  id: number;
  count: number;
  /** Fetch the live counts after hydration (the page was built earlier). */
  refresh?: boolean;
}

/** A resource's download count, updated when a download starts or live counts arrive. */
export default function DownloadCount({ id, count: builtCount, refresh = false }: Props) {
  const [count, setCount] = useState(builtCount);
  useEffect(() => {
    const onCount = (event: Event) => {
      const update = (event as CustomEvent<CountUpdate>).detail;
      if (update.id === id) setCount((shown) => ("count" in update ? update.count : shown + update.added));
    };
    window.addEventListener(countEventName, onCount);
    if (refresh) void refreshCounts();
    return () => window.removeEventListener(countEventName, onCount);
  }, [id, refresh]);
  return <span className="text-gray-700" data-download-count={id}>{downloadCountLabel(count)}</span>;
}
