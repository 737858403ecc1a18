import type { KeyboardEvent, MouseEvent } from "react";
import { objectPosition, type ImageFocus } from "../../../core/shared/image-focus.schema.ts";

const middle: ImageFocus = { x: 50, y: 50 };
/** How far one arrow key moves the point, in percent (Shift: five times as far). */
const step = 2;

const clamp = (value: number) => Math.min(100, Math.max(0, Math.round(value)));

/**
 * The cover's focal point (issue 41 point 5): a click on the preview (or the arrow keys) puts the
 * point on the photo's subject; beside it, the crop the site's cards will show, centred on it.
 */
export function CoverFocusPicker({ src, focus, onChange }: { src: string; focus: ImageFocus | null; onChange: (focus: ImageFocus | null) => void }) {
  const point = focus ?? middle;
  const place = (event: MouseEvent<HTMLButtonElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    onChange({ x: clamp(((event.clientX - box.left) / box.width) * 100), y: clamp(((event.clientY - box.top) / box.height) * 100) });
  };
  const nudge = (event: KeyboardEvent<HTMLButtonElement>) => {
    const distance = event.shiftKey ? step * 5 : step;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-distance, 0],
      ArrowRight: [distance, 0],
      ArrowUp: [0, -distance],
      ArrowDown: [0, distance],
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    onChange({ x: clamp(point.x + move[0]), y: clamp(point.y + move[1]) });
  };
  return (
    <div className="space-y-2" data-cover-focus>
      <p id="admin-cover-focus-hint" className="text-sm text-slate">
        Focal point: click the subject of the photo (or use the arrow keys). Every crop on the site centres on it.
      </p>
      <div className="flex flex-wrap items-start gap-4">
        <button
          type="button"
          onClick={place}
          onKeyDown={nudge}
          aria-describedby="admin-cover-focus-hint"
          aria-label={`Focal point: ${String(point.x)}% across, ${String(point.y)}% down`}
          className="relative block max-w-full cursor-crosshair border-3 border-ink p-0"
        >
          <img src={src} alt="Featured image preview" className="block max-h-48 max-w-full" />
          <span
            aria-hidden="true"
            data-focus-marker
            className="pointer-events-none absolute size-5 -translate-x-1/2 -translate-y-1/2 rounded-full border-3 border-paper bg-signal-dark shadow-hard-sm"
            style={{ left: `${String(point.x)}%`, top: `${String(point.y)}%` }}
          />
        </button>
        <figure className="m-0 space-y-1">
          <img
            src={src}
            alt=""
            data-crop-preview
            className="aspect-[1200/630] w-48 border-3 border-ink bg-ink object-cover"
            style={{ objectPosition: objectPosition(focus) }}
          />
          <figcaption className="text-sm text-slate">As the cards crop it</figcaption>
        </figure>
      </div>
      {focus && (
        <button type="button" className="text-sm font-semibold text-signal-dark underline" onClick={() => onChange(null)}>
          Back to the middle
        </button>
      )}
    </div>
  );
}
