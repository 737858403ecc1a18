/** Tailwind classes for one post category (SPEC §9; BRAND: red, amber, violet, slate). */
export interface CategoryStyle {
  /** Badge: background and a text colour that meets AA on it. */
  badge: string;
  /** Cover placeholder: a gradient in the category's colour. */
  placeholder: string;
  /** Text set on the placeholder. */
  placeholderText: string;
}

// Full class names written out so Tailwind finds them in this file.
const red: CategoryStyle = {
  badge: "bg-signal-dark text-paper",
  placeholder: "bg-linear-to-br from-signal to-signal-dark",
  placeholderText: "text-paper",
};
const amber: CategoryStyle = {
  badge: "bg-amber text-ink",
  placeholder: "bg-linear-to-br from-amber to-orange-600",
  placeholderText: "text-ink",
};
const violet: CategoryStyle = {
  badge: "bg-violet text-paper",
  placeholder: "bg-linear-to-br from-violet to-violet-900",
  placeholderText: "text-paper",
};
const slate: CategoryStyle = {
  badge: "bg-slate text-paper",
  placeholder: "bg-linear-to-br from-slate to-gray-800",
  placeholderText: "text-paper",
};

const byCategory: Record<string, CategoryStyle> = {
  entrepreneurship: red,
  mindset: red,
  "cash flow": amber,
  networking: violet,
};

/** Entrepreneurship and Mindset red, Cash Flow amber, Networking violet, anything else slate. */
export function categoryStyle(category: string | null | undefined): CategoryStyle {
  return byCategory[(category ?? "").trim().toLowerCase()] ?? slate;
}
