/**
 * Mounts the page's Radix Toaster into the layout's `[data-toaster]`, fetched with the first toast
 * raised: a visitor who sees no toast never needs Radix Toast, and with it a woken post would
 * pass its byte budget (docs/decisions/0018-public-islands-in-react.md).
 */
import { createRoot } from "react-dom/client";
import { Awake } from "./awaken.tsx";
import Toaster from "./Toaster.tsx";

let mounted = false;

export function mountToaster(): void {
  const container = document.querySelector<HTMLElement>("[data-toaster]");
  if (mounted || !container) return;
  mounted = true;
  createRoot(container).render(
    <Awake
      onAwake={() => {
        container.dataset.hydrated = "";
      }}
    >
      <Toaster />
    </Awake>,
  );
}
