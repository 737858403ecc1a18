import { readerApi } from "./account-paths.ts";

/** The reader's calls from `/account` and its Continue page: JSON in, `{ status, data }` out, never a throw for an answer. */
async function callReaders(method: string, path: string, body?: unknown): Promise<{ status: number; data: Record<string, unknown> }> {
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

/** The answer's own words, or the page's plain fallback (the page's words are in its HTML: no bytes of script). */
function errorOf(answer: { status: number; data: Record<string, unknown> }): string {
  return typeof answer.data.error === "string" ? answer.data.error : (words.failed ?? "");
}

/** `/account`: signed out, the email and then the code; signed in, the reader's name, data and account. */
const root = document.querySelector<HTMLElement>("[data-account]");
const words = root?.dataset ?? {};
const $ = <T extends HTMLElement>(selector: string) => root?.querySelector<T>(selector) ?? null;
const error = $("[data-account-error]");
const status = $("[data-account-status]");
let email = "";

/**
 * Where to go once signed in: the page that sent the reader here (`?return=/blog/…#comments`, from
 * "Sign in to comment"), kept for the sign-in link's Continue page too; only a path on this site.
 */
const returnKey = "nf-sign-in-return";
const asked = new URLSearchParams(location.search).get("return") ?? "";
const safe = (path: string | null) => (path && /^\/(?![/\\])/.test(path) ? path : "");
if (safe(asked)) localStorage.setItem(returnKey, asked);
else if (!document.querySelector("[data-continue-form]")) localStorage.removeItem(returnKey);
function signedInGoBack(fallback: string | null): boolean {
  const back = safe(localStorage.getItem(returnKey));
  localStorage.removeItem(returnKey);
  if (back) location.replace(back);
  else if (fallback) location.replace(fallback);
  return Boolean(back);
}

function fieldOf(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value : "";
}

/** Says the message (a page's word may be missing: nothing is said) as an error or as news. */
function say(message: string | undefined, isError: boolean): void {
  if (error) error.textContent = isError ? (message ?? "") : "";
  if (status) status.textContent = isError ? "" : (message ?? "");
}

function show(reader: Record<string, unknown> | null): void {
  $("[data-account-loading]")?.setAttribute("hidden", "");
  $("[data-account-signed-in]")?.toggleAttribute("hidden", !reader);
  $("[data-account-signed-out]")?.toggleAttribute("hidden", Boolean(reader));
  if (!reader) return;
  const emailText = $("[data-reader-email]");
  if (emailText) emailText.textContent = String(reader.email);
  $("[data-reader-export]")?.setAttribute("href", readerApi.exportData);
  $("[data-reader-preferences]")?.setAttribute("href", String(reader.preferencesUrl));
  const name = $<HTMLInputElement>("#reader-name");
  if (name) name.value = typeof reader.name === "string" ? reader.name : "";
  if (replies) replies.checked = Boolean(reader.replyNotices);
  void callReaders("GET", readerApi.payments).then(({ data }) => showPurchases(data));
}

/** Reply emails on or off (the box shows which): a reply email's one-click unsubscribe turns them off, this box back on. */
const replies = $<HTMLInputElement>("[data-reply-notices]");
replies?.addEventListener("change", () => {
  const on = replies.checked;
  void callReaders("PUT", readerApi.replyNotices, { on }).then((answer) => {
    replies.checked = answer.status === 200 ? on : !on;
    say(answer.status === 200 ? (on ? words.repliesOn : words.repliesOff) : errorOf(answer), answer.status !== 200);
  });
});

/** Their purchases and membership (issue 47 point 4): a small list, shown only when there is something. */
function showPurchases(data: Record<string, unknown>): void {
  const list = $("[data-purchases]");
  const payments = (data.payments ?? []) as { itemTitle: string; amount: number; currency: string; status: string; downloadUrl: string | null }[];
  const membership = data.membership as { active: boolean; interval: string | null } | null | undefined;
  if (!list || (payments.length === 0 && !membership)) return;
  list.replaceChildren(
    ...payments.map((payment) => {
      const item = document.createElement("li");
      const amount = new Intl.NumberFormat("en", { style: "currency", currency: payment.currency }).format(payment.amount / 100);
      item.textContent = `${payment.itemTitle}: ${amount}${payment.status === "paid" ? "" : ` (${payment.status})`} `;
      if (payment.downloadUrl) {
        const link = item.appendChild(document.createElement("a"));
        link.href = payment.downloadUrl;
        link.className = "underline";
        link.textContent = words.download ?? "";
      }
      return item;
    }),
  );
  const state = $("[data-membership]");
  if (state && membership) state.textContent = membership.active ? (words.supporter ?? "") : (words.lapsed ?? "");
  $("[data-manage-membership]")?.toggleAttribute("hidden", !membership);
  $("[data-account-purchases]")?.removeAttribute("hidden");
}

/** Stripe's Customer Portal: by the reader's session, or by the receipt link's token (in the fragment). */
function openPortal(token?: string): void {
  void callReaders("POST", readerApi.billingPortal, token ? { token } : {}).then((answer) => {
    if (typeof answer.data.url === "string") location.assign(answer.data.url);
    else say(errorOf(answer), true);
  });
}
$("[data-manage-membership]")?.addEventListener("click", () => openPortal());
const manage = new URLSearchParams(location.hash.slice(1)).get("manage");
if (manage) openPortal(manage);

function onSubmit(selector: string, handle: (form: HTMLFormElement) => Promise<void>): void {
  const form = $<HTMLFormElement>(selector);
  form?.addEventListener("submit", (event) => {
    event.preventDefault();
    void handle(form);
  });
}

onSubmit("[data-sign-in-form]", async (form) => {
  email = fieldOf(form, "email").trim();
  const answer = await callReaders("POST", readerApi.signIn, { email });
  if (answer.status !== 202) return say(errorOf(answer), true);
  say("", false);
  const codeForm = $<HTMLFormElement>("[data-code-form]");
  codeForm?.removeAttribute("hidden");
  const sent = $("[data-code-sent]");
  if (sent) sent.textContent = String(answer.data.message);
  $<HTMLInputElement>("#reader-code")?.focus();
});

onSubmit("[data-code-form]", async (form) => {
  const code = fieldOf(form, "code");
  const answer = await callReaders("POST", readerApi.verify, { email, code });
  if (answer.status !== 200) return say(errorOf(answer), true);
  if (signedInGoBack(null)) return;
  say(words.signedIn, false);
  show(answer.data);
});

onSubmit("[data-name-form]", async (form) => {
  const name = fieldOf(form, "name");
  const answer = await callReaders("PUT", readerApi.me, { name });
  if (answer.status !== 200) return say(errorOf(answer), true);
  show(answer.data);
  say(words.saved, false);
});

$("[data-sign-out]")?.addEventListener("click", () => {
  void callReaders("POST", readerApi.signOut).then(() => {
    show(null);
    say(words.signedOut, false);
  });
});

const confirmBox = $("[data-delete-confirm]");
$("[data-delete-start]")?.addEventListener("click", () => {
  confirmBox?.removeAttribute("hidden");
  $<HTMLButtonElement>("[data-delete-no]")?.focus();
});
$("[data-delete-no]")?.addEventListener("click", () => confirmBox?.setAttribute("hidden", ""));
$("[data-delete-yes]")?.addEventListener("click", () => {
  void callReaders("DELETE", readerApi.me).then((answer) => {
    if (answer.status !== 204) return say(errorOf(answer), true);
    confirmBox?.setAttribute("hidden", "");
    show(null);
    say(words.deleted, false);
  });
});

const continueForm = $<HTMLFormElement>("[data-continue-form]");
if (continueForm) wakeContinue(continueForm);
else void callReaders("GET", readerApi.me).then((answer) => show(answer.status === 200 ? answer.data : null));

/**
 * The sign-in link's page (the same script, so both pages load one file): the token is in the
 * fragment (no scanner or server sees it); only pressing Continue posts it, so a mail scanner
 * opening the link spends nothing.
 */
function wakeContinue(form: HTMLFormElement): void {
  const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    void callReaders("POST", readerApi.verify, { token }).then((answer) => {
      // Replaced, not added: the token leaves the browser's history.
      if (answer.status === 200) signedInGoBack("/account");
      else say(errorOf(answer), true);
    });
  });
}
