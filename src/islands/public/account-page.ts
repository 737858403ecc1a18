import { callReaders, errorOf, readerApi } from "./account-api.ts";

/** `/account`: signed out, the email and then the code; signed in, the reader's name, data and account. */
const root = document.querySelector<HTMLElement>("[data-account]");
const $ = <T extends HTMLElement>(selector: string) => root?.querySelector<T>(selector) ?? null;
const error = $("[data-account-error]");
const status = $("[data-account-status]");
let email = "";

function fieldOf(form: HTMLFormElement, name: string): string {
  const value = new FormData(form).get(name);
  return typeof value === "string" ? value : "";
}

function say(message: string, isError: boolean): void {
  if (error) error.textContent = isError ? message : "";
  if (status) status.textContent = isError ? "" : message;
}

function show(reader: Record<string, unknown> | null): void {
  $("[data-account-loading]")?.setAttribute("hidden", "");
  const signedIn = $("[data-account-signed-in]");
  const signedOut = $("[data-account-signed-out]");
  signedIn?.toggleAttribute("hidden", !reader);
  signedOut?.toggleAttribute("hidden", Boolean(reader));
  if (!reader) return;
  const emailText = $("[data-reader-email]");
  if (emailText) emailText.textContent = String(reader.email);
  const name = $<HTMLInputElement>("#reader-name");
  if (name) name.value = typeof reader.name === "string" ? reader.name : "";
}

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
  say("You're signed in.", false);
  show(answer.data);
});

onSubmit("[data-name-form]", async (form) => {
  const name = fieldOf(form, "name");
  const answer = await callReaders("PUT", readerApi.me, { name });
  if (answer.status !== 200) return say(errorOf(answer), true);
  show(answer.data);
  say("Name saved.", false);
});

$("[data-sign-out]")?.addEventListener("click", () => {
  void callReaders("POST", readerApi.signOut).then(() => {
    show(null);
    say("You're signed out.", false);
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
    say("Your account is deleted. Everything we held about you is gone.", false);
  });
});

void callReaders("GET", readerApi.me).then((answer) => show(answer.status === 200 ? answer.data : null));
