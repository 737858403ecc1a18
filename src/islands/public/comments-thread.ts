import { commentsApi, withId } from "./comments-paths.ts";

/**
 * The thread under a post (issue 44 point 3), loaded by `comments-loader.ts`: the approved comments
 * (and the reader's own held ones, marked "awaiting approval") with one level of replies, oldest or
 * newest first, and the form for a signed-in reader (or the owner, who writes as the author). Plain
 * DOM, no React: each comment is a copy of the page's `<template>`, and every word is in the HTML.
 * The comment's `html` is the server's rendering of plain text (escaped, links linkified): the only
 * HTML set here, never anything the browser built from a reader's text.
 */

interface Comment {
  id: number;
  parentId: number | null;
  /** A reply from the fediverse (issue 45) names its author's `user@server` and links to the original. */
  author: { name: string; isOwner: boolean; handle?: string };
  originalUrl?: string;
  html: string;
  createdAt: string;
  editedAt: string | null;
  status?: string;
  mine?: boolean;
  /** With `mine`: until when its author may edit or delete it; absent for the owner, who always may. */
  editableUntil?: string;
}

interface Answer {
  status: number;
  data: Record<string, unknown>;
}

const maxLength = 5000;

async function call(method: string, path: string, body?: unknown): Promise<Answer> {
  try {
    const response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "content-type": "application/json" },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const data = response.status === 204 ? {} : ((await response.json().catch(() => ({}))) as Record<string, unknown>);
    return { status: response.status, data };
  } catch {
    return { status: 0, data: {} };
  }
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

export function showComments(region: HTMLElement, focus: boolean): void {
  const words = region.dataset;
  const $ = <T extends HTMLElement>(selector: string, within: ParentNode = region) => within.querySelector<T>(selector);
  const body = $("[data-comments-body]");
  const list = $("[data-comments-list]");
  const form = $<HTMLFormElement>("[data-comment-form]");
  const textarea = $<HTMLTextAreaElement>("textarea", form ?? region);
  const template = $<HTMLTemplateElement>("template[data-comment-template]");
  const more = $<HTMLButtonElement>("[data-comments-more]");
  const cancel = $<HTMLButtonElement>("[data-comment-cancel]");
  const replying = $("[data-comment-replying]");
  const formHome = form?.parentElement;
  const formNext = form?.nextElementSibling ?? null;
  if (!body || !list || !form || !textarea || !template || !more) return;
  const postId = words.postId ?? "";
  /** Closed when the page was built, or since (the answer's `open`). */
  let closed = words.closed !== undefined;
  let order: "oldest" | "newest" = "oldest";
  let page = 1;
  let canWrite = false;
  /** What the form does on submit: a new comment (or a reply to `parentId`), or an edit of `editing`. */
  let parentId: number | null = null;
  let editing: number | null = null;

  const say = (message: string, isError: boolean) => {
    const error = $("[data-comments-error]");
    const status = $("[data-comments-status]");
    if (error) error.textContent = isError ? message : "";
    if (status) status.textContent = isError ? "" : message;
  };
  const errorOf = (answer: Answer) => (typeof answer.data.error === "string" ? answer.data.error : (words.failed ?? ""));

  function render(comment: Comment): HTMLElement {
    const item = (template?.content.firstElementChild?.cloneNode(true) ?? document.createElement("li")) as HTMLElement;
    const part = (name: string) => $(`[data-c-${name}]`, item);
    item.id = `comment-${String(comment.id)}`;
    item.dataset.commentId = String(comment.id);
    const name = part("name");
    if (name) name.textContent = comment.author.name;
    part("owner")?.toggleAttribute("hidden", !comment.author.isOwner);
    const from = part("from");
    // Only a web address: the original's link comes from another server.
    if (from && comment.author.handle && /^https?:\/\//.test(comment.originalUrl ?? "")) {
      from.hidden = false;
      from.textContent = `@${comment.author.handle}`;
      from.setAttribute("href", comment.originalUrl ?? "");
    }
    const time = part("time");
    if (time) {
      time.setAttribute("datetime", comment.createdAt);
      time.textContent = dateFormat.format(new Date(comment.createdAt));
    }
    part("edited")?.toggleAttribute("hidden", !comment.editedAt);
    part("held")?.toggleAttribute("hidden", comment.status === undefined || comment.status === "approved");
    const html = part("html");
    if (html) html.innerHTML = comment.html;
    const top = comment.parentId === null;
    const reply = part("reply");
    if (reply && canWrite && !closed && comment.status !== "held") {
      reply.hidden = false;
      reply.setAttribute("aria-label", `Reply to ${comment.author.name}`);
      // One level of replies: a reply to a reply answers the same thread.
      reply.addEventListener("click", () => startReply(comment.parentId ?? comment.id, comment.author.name, item));
    }
    if (comment.mine && (comment.editableUntil === undefined || Date.now() < Date.parse(comment.editableUntil))) {
      const edit = part("edit");
      const remove = part("delete");
      if (edit) {
        edit.hidden = false;
        edit.addEventListener("click", () => startEdit(comment, html?.innerText ?? "", item));
      }
      if (remove) {
        remove.hidden = false;
        remove.addEventListener("click", () => void removeComment(comment.id));
      }
    }
    if (!top) part("replies")?.remove();
    return item;
  }

  function place(comment: Comment): void {
    const item = render(comment);
    const parent = comment.parentId === null ? null : list?.querySelector(`#comment-${String(comment.parentId)} [data-c-replies]`);
    (parent ?? list)?.append(item);
  }

  async function load(reset: boolean): Promise<void> {
    if (reset) {
      page = 1;
    }
    const answer = await call("GET", `${withId(commentsApi.postComments, postId)}?page=${String(page)}&order=${order}`);
    // Switched off since the page was built: the comments say nothing at all.
    if (answer.status === 404 || answer.data.enabled === false) return void region.setAttribute("hidden", "");
    if (answer.status !== 200) return say(errorOf(answer), true);
    if (answer.data.viewer === "owner") canWrite = true;
    if (answer.data.open === false) closed = true;
    const comments = (answer.data.comments ?? []) as Comment[];
    const total = Number(answer.data.total ?? 0);
    if (reset && list) list.replaceChildren();
    comments.forEach(place);
    const totalLine = $("[data-comments-total]");
    if (totalLine) totalLine.textContent = total === 1 ? "1 comment" : `${String(total)} comments`;
    const pages = Number(answer.data.pages ?? 1);
    if (more) more.hidden = comments.length === 0 || page >= pages;
  }

  function resetForm(): void {
    parentId = null;
    editing = null;
    form?.reset();
    count();
    if (replying) replying.hidden = true;
    if (cancel) cancel.hidden = true;
    if (formHome && form && form.parentElement !== formHome) formHome.insertBefore(form, formNext);
  }

  function startReply(id: number, name: string, item: HTMLElement): void {
    resetForm();
    parentId = id;
    if (replying) {
      replying.textContent = `Replying to ${name}`;
      replying.hidden = false;
    }
    if (cancel) cancel.hidden = false;
    item.append(form as HTMLFormElement);
    textarea?.focus();
  }

  function startEdit(comment: Comment, text: string, item: HTMLElement): void {
    resetForm();
    editing = comment.id;
    if (textarea) textarea.value = text.trim();
    count();
    if (cancel) cancel.hidden = false;
    item.append(form as HTMLFormElement);
    textarea?.focus();
  }

  async function removeComment(id: number): Promise<void> {
    if (!confirm(words.confirmDelete ?? "")) return;
    const answer = await call("DELETE", withId(commentsApi.comment, id));
    if (answer.status !== 204 && answer.status !== 200) return say(errorOf(answer), true);
    resetForm();
    await load(true);
    say(words.deleted ?? "", false);
  }

  function count(): void {
    const counter = $("[data-comment-count]");
    if (counter && textarea) counter.textContent = `${textarea.value.length.toLocaleString("en")} / ${maxLength.toLocaleString("en")}`;
  }

  textarea.addEventListener("input", count);
  cancel?.addEventListener("click", () => {
    resetForm();
    textarea.focus();
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = textarea.value;
    const website = form.querySelector<HTMLInputElement>('[name="website"]')?.value ?? "";
    if (!text.trim()) return say(textarea.validationMessage || (words.failed ?? ""), true);
    const request =
      editing === null
        ? call("POST", withId(commentsApi.postComments, postId), {
            body: text,
            ...(parentId !== null && { parentId }),
            website,
          })
        : call("PUT", withId(commentsApi.comment, editing), { body: text });
    const wasEdit = editing !== null;
    void request.then(async (answer) => {
      if (answer.status !== 200 && answer.status !== 201) return say(errorOf(answer), true);
      resetForm();
      await load(true);
      say((wasEdit ? words.saved : answer.data.status === "held" ? words.held : words.posted) ?? "", false);
    });
  });
  more.addEventListener("click", () => {
    page += 1;
    void load(false);
  });
  for (const button of region.querySelectorAll<HTMLButtonElement>("[data-comments-order]")) {
    button.addEventListener("click", () => {
      order = button.dataset.commentsOrder === "newest" ? "newest" : "oldest";
      for (const other of region.querySelectorAll("[data-comments-order]")) other.setAttribute("aria-pressed", String(other === button));
      void load(true);
    });
  }

  $("[data-comments-start]")?.remove();
  body.hidden = false;
  if (focus) $("[data-comments-total]")?.setAttribute("tabindex", "-1");
  // Who is reading: a reader (or the owner, whom the answer's `viewer` names) may write; anyone else is asked to sign in.
  void call("GET", commentsApi.readerMe).then(async (me) => {
    canWrite = me.status === 200;
    await load(true);
    const signIn = $("[data-comments-sign-in]");
    if (signIn) signIn.hidden = canWrite || closed;
    form.hidden = !canWrite || closed;
    const closedLine = $("[data-comments-closed]");
    if (closed && !closedLine) {
      const line = document.createElement("p");
      line.className = "mt-6 font-semibold";
      line.textContent = words.closedText ?? "";
      body.append(line);
    }
    if (focus) $("[data-comments-total]")?.focus();
  });
}
