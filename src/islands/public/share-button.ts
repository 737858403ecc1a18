/**
 * SPEC §2: the post's Share button — native share with title, excerpt and URL; otherwise the URL
 * goes to the clipboard. Plain DOM, no React: the post page then loads no framework at all
 * (a post's byte budget, docs/decisions/0002). Markup: `ShareButton.astro`.
 */
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

export function mount(island: HTMLElement, props: Record<string, unknown>): void {
  const { title = "", excerpt = "" } = props as Partial<Props>;
  island.querySelector("button[data-share]")?.addEventListener("click", () => void share({ title, excerpt }));
}
