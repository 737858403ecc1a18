import { useRef, useState, type SubmitEvent } from "react";
import { apiPaths, pathWith } from "../../api/api-paths.ts";
import { announceCount } from "./download-count.ts";
import { publicToastTexts } from "./toast-texts.ts";
import { showToast } from "./toast.ts";

interface Props {
  id: number;
  title: string;
  /** SPEC §4: 'Downloading...' on home, 'Processing...' on the downloads page. */
  pendingLabel: string;
}

const { downloadFailed: failed, downloadStarted: started } = publicToastTexts;

/** The message under the field for an address that can't be one (the server's own words for the same mistake). */
export const invalidAddressMessage = "Please enter a valid email address.";

/**
 * Whether an address is worth sending: something@host.tld, no spaces. A loose check on purpose, so
 * the island carries no validation library; the server's zod check (`subscribeSchema`) is the rule,
 * and its 400 is shown the same way.
 */
const plausibleAddress = (address: string) => address.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(address);

/** A 400's `{ error }`, when the server said what was wrong with the address. */
async function addressProblem(response: Response): Promise<string | null> {
  if (response.status !== 400) return null;
  try {
    const body = (await response.json()) as { error?: unknown };
    return typeof body.error === "string" && /email/i.test(body.error) ? body.error : null;
  } catch {
    return null;
  }
}

/**
 * 'Get Free Download': asks for an email in a dialog, requests the file and starts the download.
 * Without JavaScript the button opens the dialog by itself (`command="show-modal"`) and the
 * dialog's form posts the email, answered with the file.
 */
export default function DownloadButton({ id, title, pendingLabel }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  // What is wrong with the address, shown under the field while the dialog stays open.
  const [problem, setProblem] = useState<string | null>(null);
  const headingId = `download-dialog-${String(id)}`;
  const dialogId = `${headingId}-box`;

  function cancel() {
    setProblem(null);
    dialog.current?.close();
    showToast(failed);
  }

  /** A mistyped address: the dialog opens again (or stays open) with the text kept and the message under it. */
  function showProblem(message: string) {
    setProblem(message);
    if (!dialog.current?.open) dialog.current?.showModal();
    input.current?.focus();
  }

  async function request(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    // Uncontrolled: what was typed into a dialog opened before the island woke is kept.
    const address = (input.current?.value ?? "").trim();
    if (address === "") {
      // SPEC §5: an empty answer aborts, as a cancel does.
      cancel();
      return;
    }
    // A typo is the reader's to fix, not a failed download: the dialog stays open and no request goes.
    if (!plausibleAddress(address)) {
      showProblem(invalidAddressMessage);
      return;
    }
    setProblem(null);
    dialog.current?.close();
    setPending(true);
    try {
      const response = await fetch(pathWith(apiPaths.downloadRequest, { id }), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: address }),
        credentials: "same-origin",
      });
      const rejected = await addressProblem(response);
      if (rejected) {
        showProblem(rejected);
        return;
      }
      if (!response.ok) throw new Error("Download failed");
      const { downloadUrl } = (await response.json()) as { downloadUrl: string };
      showToast(started);
      // The file answers as an attachment, so the page stays where it is.
      const link = document.createElement("a");
      link.href = downloadUrl;
      link.download = "";
      link.click();
      announceCount({ id, added: 1 });
    } catch {
      showToast(failed);
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      <button
        type="button"
        data-download-id={id}
        disabled={pending}
        commandfor={dialogId}
        command="show-modal"
        onClick={(event) => {
          event.preventDefault();
          if (!dialog.current?.open) dialog.current?.showModal();
          input.current?.focus();
        }}
        className="btn mt-auto justify-center disabled:cursor-wait"
      >
        <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="3" aria-hidden="true" focusable="false">
          <path d="M12 3v13M6 10l6 6 6-6M4 21h16"></path>
        </svg>
        {pending ? pendingLabel : "Get Free Download"}
      </button>
      <dialog
        ref={dialog}
        id={dialogId}
        aria-labelledby={headingId}
        className="nf-dialog"
        onCancel={(event) => {
          // Escape: close as Cancel does (SPEC §8: a cancelled request shows the failure toast).
          event.preventDefault();
          cancel();
        }}
      >
        <form action={pathWith(apiPaths.downloadRequest, { id })} method="post" noValidate onSubmit={(event) => void request(event)}>
          <h2 id={headingId} className="font-display text-2xl uppercase leading-tight">
            Get {title}
          </h2>
          <p className="mt-2 text-gray-800">Enter your email and the download starts right away.</p>
          <label htmlFor={`${headingId}-email`} className="mt-4 mb-1 block text-sm font-semibold">
            Email address
          </label>
          <input
            id={`${headingId}-email`}
            name="email"
            type="email"
            autoComplete="email"
            ref={input}
            placeholder="you@startup.com"
            aria-invalid={problem !== null}
            aria-describedby={problem ? `${headingId}-problem` : undefined}
            onInput={() => setProblem(null)}
            className="w-full border-3 border-ink bg-card px-4 py-3 text-ink placeholder:text-gray-600"
          />
          {problem && (
            <p id={`${headingId}-problem`} role="alert" className="mt-2 text-sm font-semibold text-signal-dark">
              {problem}
            </p>
          )}
          <div className="mt-5 flex flex-wrap justify-end gap-3">
            <button
              type="button"
              commandfor={dialogId}
              command="close"
              onClick={(event) => {
                event.preventDefault();
                cancel();
              }}
              className="btn btn-light"
            >
              Cancel
            </button>
            <button type="submit" className="btn">
              Download
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
