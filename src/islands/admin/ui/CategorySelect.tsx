import type { ControlProps } from "./Field.tsx";

/** The category picker of the post and download forms: "Select a category" first (empty). */
export function CategorySelect({ categories, defaultValue, ...props }: ControlProps & { categories: readonly string[]; defaultValue: string }) {
  return (
    <select {...props} defaultValue={defaultValue} className="admin-input">
      <option value="">Select a category</option>
      {categories.map((category) => (
        <option key={category} value={category}>
          {category}
        </option>
      ))}
    </select>
  );
}
