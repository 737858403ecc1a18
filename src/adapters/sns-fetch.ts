import type { SnsFetch } from "../core/email-events/sns-signature.ts";

/**
 * The real `SnsFetch`: a GET to Amazon SNS (the caller has already checked the address is on SNS's
 * own https host), no redirects followed (a redirect could lead anywhere), 10 seconds at most, 64 KB
 * at most (a certificate is about 2 KB; a subscription's answer a few hundred bytes).
 */
export const fetchFromSns: SnsFetch = async (url) => {
  const response = await fetch(url, { redirect: "error", signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw new Error(`Amazon SNS answered ${String(response.status)} for ${url.href}`);
  const text = await response.text();
  if (text.length > 64 * 1024) throw new Error(`Amazon SNS's answer for ${url.href} is too large`);
  return text;
};
