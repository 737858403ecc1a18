/**
 * The page's one toast, shared by every island: islands call `showToast`, the Toaster shows it.
 * The message travels as a window event (`nf:toast`) so islands don't depend on sharing a module
 * instance; the latest one is also kept, as on a public page the first toast is raised before the
 * Toaster has mounted (it mounts for that toast).
 */
export interface ToastMessage {
  title: string;
  description: string;
  /** `destructive`: a failure, shown in red and announced assertively. */
  variant?: "default" | "destructive";
  /** A link to what the toast is about ("View post" after a post is created), opened in a new tab. */
  link?: { label: string; href: string };
}

export interface ShownToast extends ToastMessage {
  /** Grows with each toast, so a new one replaces (re-keys) the current. */
  id: number;
}

export const toastEventName = "nf:toast";

let nextId = 1;
let latest: ShownToast | null = null;

/** Shows `message`, replacing any toast on screen (SPEC §9: at most one). */
export function showToast(message: ToastMessage): void {
  latest = { ...message, id: nextId++ };
  window.dispatchEvent(new CustomEvent<ShownToast>(toastEventName, { detail: latest }));
}

/** The last toast raised on this page (for a Toaster that hydrates late). */
export function latestToast(): ShownToast | null {
  return latest;
}
