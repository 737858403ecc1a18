import { useQuery } from "@tanstack/react-query";
import { useId, useState, type KeyboardEvent } from "react";
import { maxTagsPerPost, type Tag } from "../../../core/posts/tag.schema.ts";
import { queries } from "../query-client.ts";

/** How many suggestions show at once: enough to choose from, short enough to scan. */
const maxSuggestions = 8;

interface Props {
  /** The post's tags by slug (an edit), or none. */
  initial: readonly string[];
  error?: string | undefined;
}

const matches = (tag: Tag, typed: string) => {
  const text = typed.toLowerCase();
  return tag.name.toLowerCase().includes(text) || tag.slug.includes(text);
};

/**
 * The post's tags: chips, and a text box that suggests existing tags as the owner types (an ARIA
 * combobox: arrows move, Enter or comma picks, Escape closes). A name no tag has is kept as typed
 * and becomes a tag when the post is saved. The form sends them in the hidden `tags` field,
 * comma-separated, as the API reads it.
 */
export function TagsField({ initial, error }: Props) {
  const id = useId();
  const { data: tags = [] } = useQuery(queries.tags);
  const [chosen, setChosen] = useState<string[]>([...initial]);
  const [typed, setTyped] = useState("");
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);

  const bySlug = new Map(tags.map((tag) => [tag.slug, tag]));
  const nameOf = (entry: string) => bySlug.get(entry)?.name ?? entry;
  const text = typed.trim();
  const taken = new Set(chosen.map((entry) => entry.toLowerCase()));
  const suggestions = text
    ? tags.filter((tag) => !taken.has(tag.slug) && !taken.has(tag.name.toLowerCase()) && matches(tag, text)).slice(0, maxSuggestions)
    : [];
  const exact = tags.some((tag) => tag.name.toLowerCase() === text.toLowerCase() || tag.slug === text.toLowerCase());
  const options: { key: string; label: string; entry: string }[] = [
    ...suggestions.map((tag) => ({ key: tag.slug, label: tag.name, entry: tag.slug })),
    ...(text && !exact && !taken.has(text.toLowerCase()) && !text.includes(",") ? [{ key: "", label: `Create “${text}”`, entry: text }] : []),
  ];
  const expanded = open && options.length > 0;

  const add = (entry: string) => {
    const clean = entry.replace(/\s+/g, " ").trim();
    if (clean && !taken.has(clean.toLowerCase()) && chosen.length < maxTagsPerPost) setChosen([...chosen, clean]);
    setTyped("");
    setActive(-1);
  };
  const remove = (entry: string) => setChosen(chosen.filter((item) => item !== entry));

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      setOpen(true);
      if (options.length === 0) return;
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((current) => (current + step + options.length) % options.length);
    } else if (event.key === "Enter" || event.key === ",") {
      if (!text) return;
      event.preventDefault();
      add(options[active]?.entry ?? suggestions.find((tag) => tag.name.toLowerCase() === text.toLowerCase())?.slug ?? text);
    } else if (event.key === "Escape") {
      setOpen(false);
      setActive(-1);
    } else if (event.key === "Backspace" && !typed && chosen.length > 0) {
      remove(chosen[chosen.length - 1] as string);
    }
  };

  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div>
      <label htmlFor={inputId} className="block text-sm font-bold uppercase tracking-wide">
        Tags
      </label>
      <input type="hidden" name="tags" value={chosen.join(",")} />
      {chosen.length > 0 && (
        <ul aria-label="Tags on this post" className="mt-1 flex flex-wrap gap-2">
          {chosen.map((entry) => (
            <li key={entry} className="inline-flex items-center gap-1 border-2 border-ink px-2 py-0.5 text-sm font-semibold">
              {nameOf(entry)}
              {!bySlug.has(entry) && <span className="text-xs font-normal text-slate">(new)</span>}
              <button type="button" onClick={() => remove(entry)} aria-label={`Remove tag ${nameOf(entry)}`} className="px-1 hover:text-signal-dark">
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="relative mt-1">
        <input
          id={inputId}
          type="text"
          role="combobox"
          aria-expanded={expanded}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={expanded && active >= 0 ? `${listId}-${String(active)}` : undefined}
          aria-invalid={Boolean(error)}
          aria-describedby={[hintId, error ? errorId : ""].filter(Boolean).join(" ")}
          value={typed}
          onChange={(event) => {
            setTyped(event.target.value);
            setOpen(true);
            setActive(-1);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => setOpen(false)}
          onFocus={() => setOpen(true)}
          autoComplete="off"
          autoCapitalize="none"
          placeholder={chosen.length >= maxTagsPerPost ? "" : "Type a tag"}
          disabled={chosen.length >= maxTagsPerPost}
          className="admin-input"
        />
        <ul
          id={listId}
          role="listbox"
          aria-label="Tag suggestions"
          hidden={!expanded}
          className="absolute z-20 mt-1 max-h-64 w-full overflow-auto border-3 border-ink bg-paper shadow-hard"
        >
          {options.map((option, index) => (
            <li
              key={option.key || `new-${option.entry}`}
              id={`${listId}-${String(index)}`}
              role="option"
              aria-selected={index === active}
              // Before the input's blur closes the list.
              onMouseDown={(event) => {
                event.preventDefault();
                add(option.entry);
              }}
              className="cursor-pointer px-3 py-2 aria-selected:bg-ink aria-selected:text-paper hover:bg-ink hover:text-paper"
            >
              {option.label}
            </li>
          ))}
        </ul>
      </div>
      <p id={hintId} className="mt-1 text-sm text-slate">
        Suggests the site&apos;s tags as you type; Enter or a comma adds one, and a new name becomes a tag when the post is saved. Each tag lists its
        posts at /blog/tag/….
      </p>
      {error && (
        <p id={errorId} className="mt-1 text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
    </div>
  );
}
