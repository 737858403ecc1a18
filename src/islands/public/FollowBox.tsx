import { useEffect, useRef, useState, type SubmitEvent } from "react";
import { interactionUrl, rememberedServerKey, serverFromInput } from "./remote-follow.ts";

interface Props {
  /** The site's fediverse address, `@nofilter@example.com`. */
  handle: string;
  /** Where the box sits: keeps ids unique and picks the colours (the footer is dark). */
  placement: "post" | "footer";
}

/** What the box last said, and whether it is about the server field. */
type Status = { text: string; badServer?: boolean } | null;

const remembered = (): string => {
  try {
    return localStorage.getItem(rememberedServerKey) ?? "";
  } catch {
    return "";
  }
};

/**
 * "Follow on the social web" (issue 45 point 1): the handle as text (it selects whole with one
 * tap, so it is usable without JavaScript), a button that copies it, and a form that opens it on
 * the reader's own server. The button and the form need a script: `data-needs-js` hides them
 * on a page without one.
 */
export default function FollowBox({ handle, placement }: Props) {
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>(null);
  useEffect(() => {
    // The server this reader opened last time, unless they started typing before the box woke.
    if (input.current && input.current.value === "") input.current.value = remembered();
  }, []);
  const dark = placement === "footer";
  const inputId = `follow-server-${placement}`;
  const statusId = `follow-status-${placement}`;

  async function copy() {
    try {
      await navigator.clipboard.writeText(handle);
      setStatus({ text: "Handle copied: paste it into your app's search and press Follow." });
    } catch {
      setStatus({ text: "Couldn't copy: select the handle above and copy it yourself." });
    }
  }

  function open(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const server = serverFromInput(input.current?.value ?? "");
    if (!server) {
      setStatus({ text: "Type your server's address, e.g. mastodon.social.", badServer: true });
      input.current?.focus();
      return;
    }
    try {
      localStorage.setItem(rememberedServerKey, server);
    } catch {
      // Storage refused (private mode): the reader types it again next time.
    }
    window.location.assign(interactionUrl(server, handle));
  }

  const button = `btn ${dark ? "btn-light" : ""} px-3 py-2 text-sm shadow-hard-sm`;
  return (
    <div data-follow-box={placement}>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <code
          data-follow-handle
          className={`select-all break-all border-2 px-2 py-1 font-mono text-base font-semibold ${dark ? "border-paper/60" : "border-ink bg-card"}`}
        >
          {handle}
        </code>
        <button type="button" data-needs-js onClick={() => void copy()} className={button}>
          Copy handle
        </button>
      </div>
      <form data-needs-js onSubmit={open} noValidate className="mt-4 flex flex-wrap items-end gap-3">
        <div className="min-w-0 flex-1 basis-48">
          <label htmlFor={inputId} className="mb-1 block text-sm font-semibold">
            Your server
          </label>
          <input
            ref={input}
            id={inputId}
            name="server"
            type="text"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            placeholder="mastodon.social"
            aria-describedby={statusId}
            aria-invalid={status?.badServer ? true : undefined}
            className="w-full border-3 border-ink bg-card px-3 py-2 text-ink placeholder:text-gray-600"
          />
        </div>
        <button type="submit" className={button}>
          Open on my server
        </button>
      </form>
      <p id={statusId} role="status" className={`mt-2 min-h-6 text-sm ${dark ? "text-paper/85" : "text-gray-800"}`}>
        {status?.text}
      </p>
    </div>
  );
}
