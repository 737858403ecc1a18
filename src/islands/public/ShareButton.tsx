import { showToast } from "./toast.ts";

interface Props {
  title: string;
  excerpt: string;
}

/** SPEC §2: native share with title, excerpt and URL; otherwise the URL goes to the clipboard. */
export default function ShareButton({ title, excerpt }: Props) {
  async function share() {
    const url = window.location.href;
    if (typeof navigator.share === "function") {
      try {
        await navigator.share({ title, text: excerpt, url });
        return;
      } catch (error) {
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      showToast({ title: "Link Copied", description: "The post link is on your clipboard." });
    } catch {
      showToast({ title: "Copy Failed", description: "Copy the address from your browser's address bar.", variant: "destructive" });
    }
  }

  return (
    <button type="button" data-share onClick={() => void share()} className="btn btn-light ml-auto px-3 py-1.5 text-sm shadow-hard-sm">
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
