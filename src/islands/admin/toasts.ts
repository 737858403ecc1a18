/**
 * The dashboard's toasts: the public site's Toaster and `showToast` (one toast at a time, 5 s,
 * swipe right, F8), with SPEC §8's texts gathered here, the public islands' among them.
 */
import { publicToastTexts } from "../public/toast-texts.ts";
import { showToast, type ToastMessage } from "../public/toast.ts";

export { showToast };

/** A failure toast titled 'Error' (SPEC §8) with the given text. */
export function showErrorToast(description: string, title = "Error"): void {
  showToast({ title, description, variant: "destructive" });
}

export const toastTexts = {
  ...publicToastTexts,
  loginSuccess: { title: "Login Successful", description: "Welcome to the admin dashboard!" },
  loggedOut: { title: "Logged Out", description: "You have been logged out." },
  postCreated: { title: "Post Created", description: "Blog post has been created successfully." },
  postUpdated: { title: "Post Updated", description: "Blog post has been updated successfully." },
  postDeleted: { title: "Post Deleted", description: "Blog post has been deleted successfully." },
  downloadCreated: { title: "Download Created", description: "Downloadable resource has been created successfully." },
  downloadUpdated: { title: "Download Updated", description: "Downloadable resource has been updated successfully." },
  downloadDeleted: { title: "Download Deleted", description: "Downloadable resource has been deleted successfully." },
  exportComplete: { title: "Export Complete", description: "Email subscribers have been saved to email-subscribers.csv." },
  subscriberExported: (id: number): ToastMessage => ({
    title: "Export Complete",
    description: `Everything held about this subscriber has been saved to subscriber-${String(id)}.json.`,
  }),
  testSent: (email: string): ToastMessage => ({ title: "Test Sent", description: `A test of the newsletter was sent to ${email}.` }),
  readerSignedOut: (ended: number) => ({
    title: "Signed Out",
    description:
      ended === 0 ? "They were not signed in on any browser." : `Their reader sessions on ${String(ended)} browser${ended === 1 ? "" : "s"} ended.`,
  }),
  subscriberErased: { title: "Subscriber Erased", description: "The subscriber and everything held about them have been deleted." },
} satisfies Record<string, ToastMessage | ((...args: never[]) => ToastMessage)>;
