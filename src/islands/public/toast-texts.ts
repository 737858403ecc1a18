/**
 * SPEC §8's toast wording for the public islands, in one place with the dashboard's
 * (`src/islands/admin/toasts.ts` spreads these into its own list).
 */
import type { ToastMessage } from "./toast.ts";

export const publicToastTexts = {
  downloadStarted: { title: "Download Started", description: "Your download should begin shortly. Check your email for more resources!" },
  downloadFailed: { title: "Download Failed", description: "Failed to download the file. Please try again.", variant: "destructive" },
  // SPEC's title; the description says what happens next (issue 33): the address waits for its confirmation.
  subscribed: { title: "Subscribed!", description: "Check your inbox: press the button in our email, then Confirm on the page it opens. Already confirmed? You're all set." },
  subscribeFailed: { title: "Subscription Failed", description: "Failed to subscribe. Please try again.", variant: "destructive" },
  /** The downloads page words its newsletter toasts differently from home and post. */
  subscribedForResources: { title: "Subscribed!", description: "Check your inbox and confirm by the button in our email; then our latest resources and insights come to you." },
  subscribeFailedOnDownloads: { title: "Subscription Failed", description: "Please try again or contact support.", variant: "destructive" },
  linkCopied: { title: "Link Copied", description: "The post link is on your clipboard." },
  copyFailed: { title: "Copy Failed", description: "Copy the address from your browser's address bar.", variant: "destructive" },
} as const satisfies Record<string, ToastMessage>;
