import { publicToastTexts } from "./toast-texts.ts";
import { showToast } from "./toast.ts";

interface Props {
  title: string;
  excerpt: string;
}

async function share({ title, excerpt }: Props): Promise<void> {
  const url = window.location.href;
  if (typeof navigator.share === "function") {
    try {
      await navigator.share({ title, text: excerpt, url });
      return;
    } catch (error) {
      // The visitor closed the share sheet: nothing to say. Any other failure falls back to copying.
      if (error instanceof DOMException && error.name === "AbortError") return;
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    showToast(publicToastTexts.linkCopied);
  } catch {
    showToast(publicToastTexts.copyFailed);
  }
}

/** SPEC §2: the post's Share button — native share with title, excerpt and URL, else the URL to the clipboard. */
export default function ShareButton({ title, excerpt }: Props) {
  return (
    <button type="button" data-share onClick={() => void share({ title, excerpt })} className="btn btn-light ml-auto px-3 py-1.5 text-sm shadow-hard-sm">
      <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" aria-hidden="true" focusable="false">
        <circle cx="18" cy="5" r="2.5"></circle>
        <circle cx="6" cy="12" r="2.5"></circle>
        <circle cx="18" cy="19" r="2.5"></circle>
        <path d="M8.2 10.8l7.6-4.4M8.2 13.2l7.6 4.4"></path>
      </svg>
      Share
    </button>
  );
}
