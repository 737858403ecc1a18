import { EditorContent, useEditor, useEditorState } from "@tiptap/react";
import { useEffect, useRef, useState } from "react";
import { paragraphsToLines, linesToParagraphs, simpleModeLoses } from "./simple-mode.ts";
import { editorExtensions } from "./extensions.ts";
import EditorToolbar from "./EditorToolbar.tsx";
import type { Node as ProseMirrorNode } from "@tiptap/pm/model";
import { NodeSelection } from "@tiptap/pm/state";
import type { EditorView } from "@tiptap/pm/view";

interface Props {
  id: string;
  /** The post's HTML. */
  value: string;
  /** Called with the new HTML, or "" when the editor holds nothing. */
  onChange: (html: string) => void;
  invalid: boolean;
  describedBy: string | undefined;
  /** The editing surface's accessible name (default "Content"): a page with several editors names each. */
  label?: string;
}

/** The editing surface's attributes: named "Content" and tied to its error, like the other fields. */
function editingAttributes(id: string, invalid: boolean, describedBy: string | undefined, label = "Content"): Record<string, string> {
  return {
    id,
    class: "admin-prose",
    role: "textbox",
    "aria-multiline": "true",
    "aria-label": label,
    "aria-invalid": String(invalid),
    ...(describedBy && { "aria-describedby": describedBy }),
  };
}

/** A click on an image selects the image itself, so its alt-text field opens (EditorToolbar). */
const selectClickedImage = (view: EditorView, _pos: number, node: ProseMirrorNode, nodePos: number): boolean => {
  if (node.type.name !== "image") return false;
  view.dispatch(view.state.tr.setSelection(NodeSelection.create(view.state.doc, nodePos)));
  return true;
};

/**
 * The post body: TipTap with SPEC §2's toolbar, or the 'Simple Editor' textarea. Both edit the
 * same HTML value; the textarea shows it one block per line.
 */
export default function RichEditor({ id, value, onChange, invalid, describedBy, label }: Props) {
  const [simple, setSimple] = useState(false);
  const [simpleText, setSimpleText] = useState("");
  // The rich content had more than plain paragraphs when the textarea opened: say what typing costs.
  const [simpleLoses, setSimpleLoses] = useState(false);
  const [simpleTyped, setSimpleTyped] = useState(false);
  // The last HTML we reported, so a value coming back from the form doesn't reset the cursor.
  const reported = useRef(value);
  const editor = useEditor({
    extensions: editorExtensions,
    content: value,
    immediatelyRender: true,
    shouldRerenderOnTransaction: false,
    editorProps: { attributes: editingAttributes(id, invalid, describedBy, label), handleClickOn: selectClickedImage },
    onUpdate: ({ editor: current }) => {
      reported.current = current.isEmpty ? "" : current.getHTML();
      onChange(reported.current);
    },
  });
  const editorEmpty = useEditorState({ editor, selector: ({ editor: current }) => current.isEmpty });

  // ProseMirror sets its element's attributes once; an error appearing or going must reach them.
  useEffect(() => {
    editor.setOptions({ editorProps: { attributes: editingAttributes(id, invalid, describedBy, label), handleClickOn: selectClickedImage } });
  }, [editor, id, invalid, describedBy, label]);

  // The form changed the value itself (edit chosen, form reset): show it.
  useEffect(() => {
    if (value === reported.current) return;
    reported.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
    setSimpleText(paragraphsToLines(value));
  }, [value, editor]);

  const toSimple = () => {
    const html = editorEmpty ? "" : editor.getHTML();
    setSimpleText(paragraphsToLines(html));
    setSimpleLoses(simpleModeLoses(html));
    setSimpleTyped(false);
    setSimple(true);
  };
  const toRich = () => {
    editor.commands.setContent(reported.current, { emitUpdate: false });
    setSimple(false);
  };

  return (
    <div className={`admin-editor ${invalid ? "admin-editor-invalid" : ""}`}>
      {simple ? (
        <>
          <div className="admin-toolbar">
            <button type="button" className="admin-tool-text" onClick={toRich}>
              Switch to Rich Editor
            </button>
          </div>
          {simpleLoses && (
            <p id={`${id}-simple-note`} className="admin-simple-note">
              {simpleTyped
                ? "The Simple Editor keeps plain paragraphs only: this post's headings, lists, links, images and formatting are gone now."
                : "The Simple Editor keeps plain paragraphs only. Typing here drops this post's headings, lists, links, images and formatting; switch back without typing to keep them."}
            </p>
          )}
          <textarea
            id={id}
            className="admin-simple"
            value={simpleText}
            aria-label={label ?? "Content"}
            aria-invalid={invalid}
            aria-describedby={[describedBy, simpleLoses ? `${id}-simple-note` : undefined].filter(Boolean).join(" ") || undefined}
            onChange={(event) => {
              setSimpleText(event.target.value);
              setSimpleTyped(true);
              reported.current = linesToParagraphs(event.target.value);
              onChange(reported.current);
            }}
          />
        </>
      ) : (
        <>
          <EditorToolbar editor={editor} onSimple={toSimple} />
          <EditorContent editor={editor} />
        </>
      )}
    </div>
  );
}
