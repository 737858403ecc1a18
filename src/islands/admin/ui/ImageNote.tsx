import type { ChosenImage } from "../use-chosen-image.ts";

/** Under an image field: that the chosen image is being scaled down, then by how much. */
export function ImageNote({ image }: { image: Pick<ChosenImage, "preparing" | "note"> }) {
  const text = image.preparing ? "Preparing the image…" : image.note;
  return (
    <p className="text-sm text-slate" aria-live="polite">
      {text}
    </p>
  );
}
