import { callReaders, errorOf, readerApi } from "./account-api.ts";

/**
 * The sign-in link's page: the token is in the fragment (no scanner or server sees it); only pressing
 * Continue posts it, so a mail scanner opening the link spends nothing.
 */
const form = document.querySelector<HTMLFormElement>("[data-continue-form]");
const error = document.querySelector<HTMLElement>("[data-account-error]");
const token = new URLSearchParams(location.hash.slice(1)).get("token") ?? "";
form?.addEventListener("submit", (event) => {
  event.preventDefault();
  void (async () => {
    const answer = await callReaders("POST", readerApi.verify, { token });
    if (answer.status === 200) {
      history.replaceState(null, "", location.pathname);
      location.assign("/account");
    } else if (error) error.textContent = errorOf(answer);
  })();
});
