/**
 * SPEC §8's toast wording for the public islands, in one place with the dashboard's
 * (`src/islands/admin/toasts.ts` spreads these into its own list).
 */
import type { ToastMessage } from "./toast.ts";

export const publicToastTexts = {
  downloadStarted: { title: "Download Started", description: "Your download should begin shortly. Check your email for more resources!" },
  downloadFailed: { title: "Download Failed", description: "Failed to download the file. Please try again.", variant: "destructive" },
  subscribed: { title: "Subscribed!", description: "You've been successfully subscribed to our newsletter." },
  subscribeFailed: { title: "Subscription Failed", description: "Failed to subscribe. Please try again.", variant: "destructive" },
  /** The downloads page words its newsletter toasts differently from home and post. */
  subscribedForResources: { title: "Subscribed!", description: "You'll receive our latest resources and insights." },
  subscribeFailedOnDownloads: { title: "Subscription Failed", description: "Please try again or contact support.", variant: "destructive" },
  linkCopied: { title: "Link Copied", description: "The post link is on your clipboard." },
  copyFailed: { title: "Copy Failed", description: "Copy the address from your browser's address bar.", variant: "destructive" },
} as const satisfies Record<string, ToastMessage>;
