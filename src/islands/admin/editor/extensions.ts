import Image from "@tiptap/extension-image";
import StarterKit from "@tiptap/starter-kit";
import { linkSchemes } from "../../../core/posts/link-schemes.ts";
import { PollNode } from "./poll-node.ts";

/**
 * The editor's engine, as SPEC §2 and §9 set it: headings 1–6, lists, quotes, inline code, code
 * blocks, rules, hard breaks and links (default protocol http, opening in a new tab, only SPEC
 * §5's schemes); undo 100 steps deep, grouped by 500 ms. Exactly what the server's sanitizer keeps.
 */
export const editorExtensions = [
  StarterKit.configure({
    heading: { levels: [1, 2, 3, 4, 5, 6] },
    undoRedo: { depth: 100, newGroupDelay: 500 },
    // The sanitizer drops <u>, so the editor doesn't offer underline.
    underline: false,
    link: {
      openOnClick: false,
      autolink: true,
      defaultProtocol: "http",
      protocols: [...linkSchemes],
      isAllowedUri: (url, { defaultValidate }) => defaultValidate(url),
      HTMLAttributes: { target: "_blank", rel: "noopener noreferrer nofollow" },
    },
  }),
  Image.configure({ inline: false, allowBase64: false }),
  // A poll block (issue 42 point 6), placed by the toolbar's Poll button.
  PollNode,
];
