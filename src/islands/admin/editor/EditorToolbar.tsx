import { useEditorState, type Editor } from "@tiptap/react";
import { useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { useMutation } from "@tanstack/react-query";
import { blogPostsRoutes } from "../../../api/routes/blog-posts.routes.ts";
import { callApi } from "../api-client.ts";
import { prepareImage } from "../shrink-image.ts";
import { showErrorToast } from "../toasts.ts";
import { checkChosenImage } from "../upload-checks.ts";
import { Icon } from "../ui/icons.tsx";
import { decorativeLabel, maxAltLength } from "../../../core/shared/image-alt.schema.ts";
import { undescribedImageMessage } from "./image-alt.ts";
import { linkAddress } from "./link-address.ts";
import { linesToParagraphs } from "./simple-mode.ts";
import { PollForm } from "./PollForm.tsx";

interface Props {
  editor: Editor;
  onSimple: () => void;
}

/** SPEC §2's toolbar. Each button names itself and shows when its format is on (aria-pressed). */
export default function EditorToolbar({ editor, onSimple }: Props) {
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      h1: current.isActive("heading", { level: 1 }),
      h2: current.isActive("heading", { level: 2 }),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      blockquote: current.isActive("blockquote"),
      link: current.isActive("link"),
      // An image is selected (clicked, or just inserted): its alt text can be edited.
      image: current.isActive("image"),
      // null: not described yet (no alt attribute); "": marked decorative; else the words.
      imageAlt: (current.getAttributes("image").alt as string | null | undefined) ?? null,
    }),
  });
  const [linkOpen, setLinkOpen] = useState(false);
  const [pollOpen, setPollOpen] = useState(false);
  const [uploading, setUploading] = useState(false);
  // The alt field takes the focus when an image was just inserted, not when one is clicked.
  const [altFocus, setAltFocus] = useState(false);
  const imageInput = useRef<HTMLInputElement>(null);
  const chain = () => editor.chain().focus();
  // A mutation, so a 401 here ends the session like any other call's.
  const uploadImageMutation = useMutation({ mutationFn: (image: File) => callApi(blogPostsRoutes.uploadImage, { body: { image } }) });

  const uploadImage = async (file: File) => {
    setUploading(true);
    try {
      // Scaled down and stripped of its metadata first, as the featured image is.
      const refused = checkChosenImage(file);
      if (refused) throw new Error(refused);
      const prepared = await prepareImage(file);
      if (prepared.error) throw new Error(prepared.error);
      const { imageUrl } = await uploadImageMutation.mutateAsync(prepared.file);
      // No alt from the file name ("IMG_2041" tells a screen reader nothing): none until the owner
      // describes the picture (or marks it decorative) in the field that opens now; the post form
      // will not save an image left undescribed.
      chain().setImage({ src: imageUrl }).run();
      const inserted = imagePosition(editor, imageUrl);
      if (inserted !== undefined) {
        editor.commands.setNodeSelection(inserted);
        setAltFocus(true);
      }
    } catch (error) {
      // SPEC only logs this; a silent failure would leave the owner guessing, so it shows too.
      console.error("Image upload failed", error);
      showErrorToast(error instanceof Error ? error.message : "The image could not be uploaded.", "Image Upload Failed");
    } finally {
      setUploading(false);
    }
  };

  const pasteFromClipboard = async () => {
    try {
      const text = await navigator.clipboard.readText();
      if (text.trim()) chain().insertContent(linesToParagraphs(text)).run();
    } catch {
      showErrorToast("The browser did not allow reading the clipboard. Paste with Ctrl+V (⌘V) instead.", "Paste Failed");
    }
  };

  return (
    <div>
      <div className="admin-toolbar" role="toolbar" aria-label="Formatting">
        <ToolButton label="Bold" pressed={active.bold} onClick={() => chain().toggleBold().run()}>
          <Icon name="bold" />
        </ToolButton>
        <ToolButton label="Italic" pressed={active.italic} onClick={() => chain().toggleItalic().run()}>
          <Icon name="italic" />
        </ToolButton>
        {/* The name starts with what the button shows (WCAG 2.5.3, label in name): a voice user says "click H1". */}
        <ToolButton label="H1 (Heading 1)" pressed={active.h1} onClick={() => chain().toggleHeading({ level: 1 }).run()}>
          <span className="font-display text-sm">H1</span>
        </ToolButton>
        <ToolButton label="H2 (Heading 2)" pressed={active.h2} onClick={() => chain().toggleHeading({ level: 2 }).run()}>
          <span className="font-display text-sm">H2</span>
        </ToolButton>
        <ToolButton label="Bullet list" pressed={active.bulletList} onClick={() => chain().toggleBulletList().run()}>
          <Icon name="bulletList" />
        </ToolButton>
        <ToolButton label="Numbered list" pressed={active.orderedList} onClick={() => chain().toggleOrderedList().run()}>
          <Icon name="orderedList" />
        </ToolButton>
        <ToolButton label="Quote" pressed={active.blockquote} onClick={() => chain().toggleBlockquote().run()}>
          <Icon name="quote" />
        </ToolButton>
        <ToolButton label={uploading ? "Uploading image…" : "Insert image"} disabled={uploading} onClick={() => imageInput.current?.click()}>
          <Icon name="image" />
        </ToolButton>
        <input
          ref={imageInput}
          type="file"
          accept="image/*"
          hidden
          aria-hidden="true"
          tabIndex={-1}
          data-testid="editor-image-input"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = "";
            if (file) void uploadImage(file);
          }}
        />
        <ToolButton label="Paste from clipboard" onClick={() => void pasteFromClipboard()}>
          <Icon name="paste" />
        </ToolButton>
        <ToolButton label="Link" pressed={linkOpen || active.link} onClick={() => setLinkOpen((open) => !open)}>
          <Icon name="link" />
        </ToolButton>
        <ToolButton label="Poll" pressed={pollOpen} onClick={() => setPollOpen((open) => !open)}>
          <span className="font-display text-sm">Poll</span>
        </ToolButton>
        {active.link && (
          <ToolButton label="Unlink" onClick={() => chain().extendMarkRange("link").unsetLink().run()}>
            <Icon name="unlink" />
          </ToolButton>
        )}
        <button type="button" className="admin-tool-text ml-auto" onClick={onSimple}>
          Simple Editor
        </button>
      </div>
      {active.image && (
        <ImageAltField
          value={active.imageAlt}
          autoFocus={altFocus}
          onChange={(alt) => {
            // Written straight into the image, which stays selected (replacing it moves the selection).
            const at = editor.state.selection.from;
            editor.chain().updateAttributes("image", { alt }).setNodeSelection(at).run();
          }}
          onDecorative={(decorative) => {
            const at = editor.state.selection.from;
            editor
              .chain()
              .updateAttributes("image", { alt: decorative ? "" : null })
              .setNodeSelection(at)
              .run();
          }}
          onDone={() => {
            setAltFocus(false);
            // Focused at once, not through TipTap's focus command: that one applies its selection a
            // frame later and would undo a click on an image made in between.
            editor.commands.setTextSelection(editor.state.selection.to);
            editor.view.focus();
          }}
        />
      )}
      {pollOpen && (
        <PollForm
          onCancel={() => {
            setPollOpen(false);
            editor.commands.focus();
          }}
          onAdd={(poll) => {
            chain().insertContent({ type: "poll", attrs: poll }).run();
            setPollOpen(false);
          }}
        />
      )}
      {linkOpen && (
        <LinkForm
          initial={(editor.getAttributes("link").href as string | undefined) ?? ""}
          onCancel={() => {
            setLinkOpen(false);
            editor.commands.focus();
          }}
          onAdd={(href) => {
            const { empty } = editor.state.selection;
            if (empty && !active.link) {
              chain()
                .insertContent({ type: "text", text: href, marks: [{ type: "link", attrs: { href } }] })
                .run();
            } else {
              chain().extendMarkRange("link").setLink({ href }).run();
            }
            setLinkOpen(false);
          }}
        />
      )}
    </div>
  );
}

function ToolButton(props: { label: string; pressed?: boolean; disabled?: boolean; onClick: () => void; children: ReactNode }) {
  return (
    <button
      type="button"
      className="admin-tool"
      aria-label={props.label}
      title={props.label}
      aria-pressed={props.pressed}
      disabled={props.disabled}
      // Keep the editor's selection: a mouse-down on the button would otherwise blur it first.
      onMouseDown={(event) => event.preventDefault()}
      onClick={props.onClick}
    >
      {props.children}
    </button>
  );
}

/** Where the image with this address sits in the document (the last one: the one just inserted). */
function imagePosition(editor: Editor, src: string): number | undefined {
  let position: number | undefined;
  editor.state.doc.descendants((node, pos) => {
    if (node.type.name === "image" && node.attrs.src === src) position = pos;
  });
  return position;
}

/**
 * The selected image's alt text, saved as it is typed, or the "decorative" mark (`alt=""`).
 * Emptied, the text leaves the image undescribed (no alt), which the post form refuses to save.
 * Enter or Escape goes back to writing, after the image.
 */
function ImageAltField({
  value,
  autoFocus,
  onChange,
  onDecorative,
  onDone,
}: {
  value: string | null;
  autoFocus: boolean;
  onChange: (alt: string | null) => void;
  onDecorative: (decorative: boolean) => void;
  onDone: () => void;
}) {
  const decorative = value === "";
  const leave = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === "Escape") {
      event.preventDefault();
      onDone();
    }
  };
  return (
    <div className="admin-link-form flex-wrap" role="group" aria-label="Image description">
      <label htmlFor="admin-image-alt" className="text-sm font-semibold">
        Alt text
      </label>
      <input
        id="admin-image-alt"
        type="text"
        className="admin-input flex-1"
        placeholder={decorative ? "Decorative: no alt text" : "What the picture shows, for readers who can't see it"}
        maxLength={maxAltLength}
        value={value ?? ""}
        disabled={decorative}
        aria-invalid={value === null}
        aria-describedby={value === null ? "admin-image-alt-missing" : undefined}
        autoFocus={autoFocus}
        onChange={(event) => onChange(event.target.value === "" ? null : event.target.value)}
        onKeyDown={leave}
      />
      <label className="flex items-center gap-2 text-sm font-semibold">
        <input
          type="checkbox"
          checked={decorative}
          onChange={(event) => onDecorative(event.target.checked)}
          onKeyDown={leave}
          className="size-5 accent-signal-dark"
        />
        {decorativeLabel}
      </label>
      {value === null && (
        <p id="admin-image-alt-missing" className="w-full text-sm font-semibold text-signal-dark">
          {undescribedImageMessage}
        </p>
      )}
    </div>
  );
}

/** The URL input with Add Link / Cancel. Not a <form>: it sits inside the post form. */
function LinkForm({ initial, onAdd, onCancel }: { initial: string; onAdd: (href: string) => void; onCancel: () => void }) {
  const [url, setUrl] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const result = linkAddress(url);
    if ("error" in result) setError(result.error);
    else onAdd(result.href);
  };
  return (
    <div className="admin-link-form">
      <label htmlFor="admin-link-url" className="sr-only">
        Link URL
      </label>
      <input
        id="admin-link-url"
        type="text"
        inputMode="url"
        className="admin-input flex-1"
        placeholder="https://example.com"
        value={url}
        autoFocus
        aria-invalid={error !== null}
        aria-describedby={error ? "admin-link-url-error" : undefined}
        onChange={(event) => setUrl(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === "Enter") {
            event.preventDefault();
            add();
          } else if (event.key === "Escape") {
            event.preventDefault();
            onCancel();
          }
        }}
      />
      <button type="button" className="btn py-1 text-sm" onClick={add}>
        Add Link
      </button>
      <button type="button" className="btn btn-light py-1 text-sm" onClick={onCancel}>
        Cancel
      </button>
      {error && (
        <p id="admin-link-url-error" className="w-full text-sm font-semibold text-signal-dark">
          {error}
        </p>
      )}
    </div>
  );
}
