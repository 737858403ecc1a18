import * as Toast from "@radix-ui/react-toast";
import { useEffect, useState } from "react";
import { latestToast, toastEventName, type ShownToast } from "./toast.ts";

/** SPEC §9: toasts show for 5000 ms, swipe right past 50 px to dismiss, F8 focuses them. */
const durationMs = 5000;

/** The page's toast viewport: renders the latest toast raised by any island. */
export default function Toaster() {
  const [toast, setToast] = useState<ShownToast | null>(latestToast);
  const [open, setOpen] = useState(toast !== null);

  useEffect(() => {
    const onToast = (event: Event) => {
      setToast((event as CustomEvent<ShownToast>).detail);
      setOpen(true);
    };
    window.addEventListener(toastEventName, onToast);
    return () => window.removeEventListener(toastEventName, onToast);
  }, []);

  const destructive = toast?.variant === "destructive";
  return (
    <Toast.Provider duration={durationMs} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toast && (
        <Toast.Root
          key={toast.id}
          open={open}
          onOpenChange={setOpen}
          type={destructive ? "foreground" : "background"}
          className={`nf-toast ${destructive ? "nf-toast-destructive" : ""}`}
        >
          <div className="min-w-0 flex-1">
            <Toast.Title className="font-display uppercase leading-tight">{toast.title}</Toast.Title>
            <Toast.Description className="mt-1 text-sm">{toast.description}</Toast.Description>
            {toast.link && (
              <Toast.Action altText={`${toast.link.label}: ${toast.link.href}`} asChild>
                <a href={toast.link.href} target="_blank" rel="noopener" className="mt-2 inline-block text-sm font-bold underline">
                  {toast.link.label}
                </a>
              </Toast.Action>
            )}
          </div>
          <Toast.Close aria-label="Close" className="nf-toast-close">
            <span aria-hidden="true">×</span>
          </Toast.Close>
        </Toast.Root>
      )}
      <Toast.Viewport hotkey={["F8"]} className="nf-toast-viewport" />
    </Toast.Provider>
  );
}
