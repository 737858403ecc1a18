import { createVerify, X509Certificate } from "node:crypto";

/**
 * Amazon SNS message signatures (how SES reports bounces and complaints): the documented
 * "string to sign" of a message's fields, signed with the key of the certificate at `SigningCertURL`
 * — RSA with SHA-1 for `SignatureVersion` 1, SHA-256 for 2. The certificate is fetched only from an
 * `https://sns.<region>.amazonaws.com/…pem` address (anyone can host a certificate elsewhere), and
 * kept: SNS signs with few certificates. No SNS library: see docs/decisions/0030-bounces-and-complaints.md.
 */

/** Fetches a URL's text (GET): the certificate, or a subscription's SubscribeURL. Injected: tests serve their own. */
export type SnsFetch = (url: URL) => Promise<string>;

export interface SnsEnvelope {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string | null | undefined;
  SubscribeURL?: string | undefined;
  Token?: string | undefined;
}

/** SNS's own hosts: `sns.<region>.amazonaws.com` (and the China regions' `.com.cn`). */
const snsHost = /^sns\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/;

/** An address SNS could have given: https, on SNS's own host, no credentials, the default port. */
export function isSnsUrl(raw: string | undefined, certificate = false): URL | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  if (url.protocol !== "https:" || !snsHost.test(url.hostname) || url.port !== "" || url.username || url.password) return undefined;
  if (certificate && !url.pathname.endsWith(".pem")) return undefined;
  return url;
}

/** The fields SNS signs, in its order, each as `Name\nvalue\n`. */
export function snsStringToSign(message: SnsEnvelope): string {
  const fields =
    message.Type === "Notification"
      ? ["Message", "MessageId", ...(message.Subject ? ["Subject"] : []), "Timestamp", "TopicArn", "Type"]
      : ["Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"];
  return fields.map((name) => `${name}\n${String(message[name as keyof SnsEnvelope] ?? "")}\n`).join("");
}

/** Keeps certificates by URL for the life of the process (a failed fetch is not kept). */
export function snsCertificates(fetch: SnsFetch) {
  const cache = new Map<string, Promise<X509Certificate>>();
  return (url: URL): Promise<X509Certificate> => {
    let certificate = cache.get(url.href);
    if (!certificate) {
      certificate = fetch(url).then((pem) => new X509Certificate(pem));
      certificate.catch(() => cache.delete(url.href));
      cache.set(url.href, certificate);
    }
    return certificate;
  };
}

/** True when the message is signed by the certificate its `SigningCertURL` names on an SNS host. */
export async function verifySnsMessage(message: SnsEnvelope, certificateAt: (url: URL) => Promise<X509Certificate>): Promise<boolean> {
  const algorithm = message.SignatureVersion === "1" ? "RSA-SHA1" : message.SignatureVersion === "2" ? "RSA-SHA256" : undefined;
  const url = isSnsUrl(message.SigningCertURL, true);
  if (!algorithm || !url || typeof message.Signature !== "string") return false;
  let certificate: X509Certificate;
  try {
    certificate = await certificateAt(url);
  } catch {
    return false;
  }
  try {
    return createVerify(algorithm).update(snsStringToSign(message), "utf8").verify(certificate.publicKey, message.Signature, "base64");
  } catch {
    return false;
  }
}
