import { execFileSync } from "node:child_process";
import { createHmac, createSign, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Webhook } from "svix";
import { snsStringToSign, type SnsEnvelope, type SnsFetch } from "../../src/core/email-events/sns-signature.ts";

/**
 * Each provider's webhook as the provider makes it, with real signatures over secrets and keys made
 * here: a Svix secret, a Mailgun signing key, a P-256 key pair (SendGrid), and a self-signed
 * certificate (SNS) served by a local HTTP server.
 */
export interface ProviderKeys {
  env: Record<string, string>;
  postmarkAuth: string;
  resendSecret: string;
  mailgunKey: string;
  sendgridPrivateKey: ReturnType<typeof generateKeyPairSync>["privateKey"];
  snsPrivateKey: string;
  snsTopicArn: string;
  snsCertUrl: string;
  /** The SnsFetch the app is given: SNS's addresses answered by the local server. */
  snsFetch: SnsFetch;
  /** Every address the app fetched, in order. */
  fetched: string[];
  close(): Promise<void>;
}

export async function makeProviderKeys(): Promise<ProviderKeys> {
  const postmarkAuth = `hooks:${randomBytes(12).toString("hex")}`;
  const resendSecret = `whsec_${randomBytes(24).toString("base64")}`;
  const mailgunKey = randomBytes(16).toString("hex");
  const sendgrid = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const folder = mkdtempSync(path.join(tmpdir(), "sns-cert-"));
  execFileSync(
    "openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "rsa:2048",
      "-nodes",
      "-keyout",
      path.join(folder, "key.pem"),
      "-out",
      path.join(folder, "cert.pem"),
      "-days",
      "2",
      "-subj",
      "/CN=sns.amazonaws.com",
    ],
    { stdio: "ignore" },
  );
  const snsPrivateKey = readFileSync(path.join(folder, "key.pem"), "utf8");
  const certificate = readFileSync(path.join(folder, "cert.pem"), "utf8");
  rmSync(folder, { recursive: true, force: true });
  const server: Server = createServer((request, response) => {
    if (request.url?.endsWith(".pem")) {
      response.writeHead(200, { "content-type": "application/x-pem-file" }).end(certificate);
      return;
    }
    response.writeHead(200, { "content-type": "text/xml" }).end("<ConfirmSubscriptionResponse/>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const fetched: string[] = [];
  const snsTopicArn = "arn:aws:sns:us-east-1:123456789012:ses-events";
  return {
    env: {
      POSTMARK_WEBHOOK_AUTH: postmarkAuth,
      RESEND_WEBHOOK_SECRET: resendSecret,
      MAILGUN_WEBHOOK_SIGNING_KEY: mailgunKey,
      SENDGRID_WEBHOOK_PUBLIC_KEY: sendgrid.publicKey.export({ type: "spki", format: "der" }).toString("base64"),
      SES_SNS_TOPIC_ARNS: snsTopicArn,
    },
    postmarkAuth,
    resendSecret,
    mailgunKey,
    sendgridPrivateKey: sendgrid.privateKey,
    snsPrivateKey,
    snsTopicArn,
    snsCertUrl: "https://sns.us-east-1.amazonaws.com/SimpleNotificationService-test.pem",
    fetched,
    // Only loopback is reached: the address's path is asked of the local server.
    snsFetch: async (url) => {
      fetched.push(url.href);
      const response = await fetch(`http://127.0.0.1:${String(port)}${url.pathname}${url.search}`);
      return response.text();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SignedRequest {
  headers: Record<string, string>;
  body: string;
}

const seconds = (at: Date) => String(Math.floor(at.getTime() / 1000));

export function postmarkRequest(keys: ProviderKeys, payload: unknown, auth = keys.postmarkAuth): SignedRequest {
  return { headers: { authorization: `Basic ${Buffer.from(auth).toString("base64")}` }, body: JSON.stringify(payload) };
}

export function resendRequest(keys: ProviderKeys, payload: unknown, at: Date, id = `msg_${randomUUID()}`): SignedRequest {
  const body = JSON.stringify(payload);
  const signature = new Webhook(keys.resendSecret).sign(id, at, body);
  return { headers: { "svix-id": id, "svix-timestamp": seconds(at), "svix-signature": signature }, body };
}

export function mailgunRequest(keys: ProviderKeys, eventData: unknown, at: Date, token = randomBytes(25).toString("hex")): SignedRequest {
  const timestamp = seconds(at);
  const signature = createHmac("sha256", keys.mailgunKey).update(`${timestamp}${token}`).digest("hex");
  return { headers: {}, body: JSON.stringify({ signature: { timestamp, token, signature }, "event-data": eventData }) };
}

export function sendgridRequest(keys: ProviderKeys, events: unknown[], at: Date): SignedRequest {
  const body = JSON.stringify(events);
  const timestamp = seconds(at);
  const signature = createSign("sha256")
    .update(timestamp + body)
    .sign(keys.sendgridPrivateKey)
    .toString("base64");
  return {
    headers: { "x-twilio-email-event-webhook-signature": signature, "x-twilio-email-event-webhook-timestamp": timestamp },
    body,
  };
}

export function snsRequest(
  keys: ProviderKeys,
  fields: { type?: string; message: unknown; at: Date; version?: "1" | "2"; topicArn?: string; certUrl?: string; subscribeUrl?: string },
): SignedRequest {
  const envelope: SnsEnvelope = {
    Type: fields.type ?? "Notification",
    MessageId: randomUUID(),
    TopicArn: fields.topicArn ?? keys.snsTopicArn,
    Message: typeof fields.message === "string" ? fields.message : JSON.stringify(fields.message),
    Timestamp: fields.at.toISOString(),
    SignatureVersion: fields.version ?? "2",
    Signature: "",
    SigningCertURL: fields.certUrl ?? keys.snsCertUrl,
    ...(fields.type === "SubscriptionConfirmation" && { SubscribeURL: fields.subscribeUrl, Token: "token-1" }),
  };
  envelope.Signature = createSign(envelope.SignatureVersion === "1" ? "RSA-SHA1" : "RSA-SHA256")
    .update(snsStringToSign(envelope))
    .sign(keys.snsPrivateKey, "base64");
  return { headers: { "x-amz-sns-message-type": envelope.Type }, body: JSON.stringify(envelope) };
}
