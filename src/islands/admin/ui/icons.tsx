/** Small inline icons (no icon font, no request); decorative, so hidden from screen readers. */
const paths = {
  edit: "M4 20h4L19 9l-4-4L4 16v4zM14 6l4 4",
  trash: "M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13",
  bold: "M7 4h6a4 4 0 0 1 0 8H7zM7 12h7a4 4 0 0 1 0 8H7z",
  italic: "M10 4h8M6 20h8M14 4l-4 16",
  bulletList: "M9 6h11M9 12h11M9 18h11M4 6h.01M4 12h.01M4 18h.01",
  orderedList: "M10 6h10M10 12h10M10 18h10M4 4v4M3 8h2M3 14h2l-2 3h2",
  quote: "M7 7h4v6H5V9a2 2 0 0 1 2-2zM7 13v4M15 7h4v6h-6V9a2 2 0 0 1 2-2zM15 13v4",
  image: "M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15 9h.01",
  paste: "M9 4h6v3H9zM7 5H5v15h14V5h-2",
  link: "M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6l-1 1M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6l1-1",
  unlink: "M10 14a4 4 0 0 0 6 0l3-3a4 4 0 0 0-6-6M14 10a4 4 0 0 0-6 0l-3 3a4 4 0 0 0 6 6M3 3l18 18",
  download: "M12 4v11M7 10l5 5 5-5M5 20h14",
  send: "M21 3L10 14M21 3l-7 18-4-7-7-4z",
} as const;

export function Icon({ name }: { name: keyof typeof paths }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="2.2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={paths[name]} />
    </svg>
  );
}
