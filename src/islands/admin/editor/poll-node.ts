import { Node } from "@tiptap/react";
import { pollWebNote } from "../../../core/polls/poll.schema.ts";

/** What a poll node holds: the poll's id (made by `POST /api/polls`) and its words, shown on the post's page. */
export interface PollAttributes {
  id: number;
  question: string;
  answers: string[];
}

/**
 * A poll in a post (issue 42 point 6): one block the owner places with the toolbar's Poll button and
 * cannot type into. Stored as `<div data-poll="ID">` with the question and the answers as text and a
 * note that the email carries the links (the newsletter turns it into one signed link per answer);
 * read back from the same HTML when a post is opened again. What the server's sanitizer keeps.
 */
export const PollNode = Node.create({
  name: "poll",
  group: "block",
  atom: true,
  selectable: true,
  draggable: true,
  addAttributes() {
    return {
      id: { default: null },
      question: { default: "" },
      answers: { default: [] },
    };
  },
  parseHTML() {
    return [
      {
        tag: "div[data-poll]",
        getAttrs: (element) => {
          const id = Number(element.getAttribute("data-poll"));
          if (!Number.isInteger(id) || id < 1) return false;
          return {
            id,
            question: element.querySelector("strong")?.textContent ?? "",
            answers: [...element.querySelectorAll("li")].map((item) => item.textContent),
          };
        },
      },
    ];
  },
  renderHTML({ node }) {
    const { id, question, answers } = node.attrs as PollAttributes;
    return [
      "div",
      { "data-poll": String(id) },
      ["p", ["strong", question]],
      ["ul", ...answers.map((answer) => ["li", answer])],
      ["p", ["em", pollWebNote]],
    ];
  },
});
