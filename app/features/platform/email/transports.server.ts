import { globalDb } from "~/db/client.server";
import { devMailbox } from "~/db/schema";
import { newId } from "~/utils/ids";
import type { RenderedEmail } from "./templates";
import { bytesToBase64 } from "~/utils/base64";
import { ConfigurationError, devToolsEnabled } from "../environment.server";

export type EmailAttachment = { filename: string; contentType: string; content: Uint8Array };
export type OutgoingEmail = Omit<RenderedEmail, "attachments" | "from"> & {
  outboxId: string;
  tenantId: string | null;
  to: string;
  from: string;
  attachments?: EmailAttachment[];
};

export interface EmailTransport {
  readonly name: string;
  send(mail: OutgoingEmail): Promise<void>;
}

const DEV_TRANSPORT_REFUSED = "EMAIL_TRANSPORT=dev needs APP_ENV=development (or test) and a local APP_DOMAIN; configure a real transport for this deployment";

/**
 * Development and tests: keep the message in D1 so a developer can read it at /dev/mailbox.
 * Anywhere else it refuses, so a misconfigured deploy fails loudly (the queue retries and
 * dead-letters) instead of quietly filing real users' mail where nobody reads it.
 */
export function devTransport(env: Env): EmailTransport {
  if (!devToolsEnabled(env)) throw new ConfigurationError(DEV_TRANSPORT_REFUSED);
  return {
    name: "dev",
    async send(mail) {
      if (!devToolsEnabled(env)) throw new ConfigurationError(DEV_TRANSPORT_REFUSED);
      await globalDb(env)
        .insert(devMailbox)
        .values({
          id: newId(),
          outboxId: mail.outboxId,
          tenantId: mail.tenantId,
          toAddress: mail.to,
          fromAddress: mail.from,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          replyTo: mail.replyTo ?? null,
          attachments: (mail.attachments ?? []).map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            size: a.content.byteLength,
            base64: bytesToBase64(a.content),
          })),
          createdAt: Date.now(),
        })
        .onConflictDoNothing();
    },
  };
}

/**
 * An HTTP e-mail provider: POST JSON {from, to, subject, text, html, reply_to?, attachments?
 * [{filename, content_type, content (base64)}]} with a bearer token.
 * URL and token are secrets (EMAIL_HTTP_URL, EMAIL_HTTP_TOKEN).
 */
export function httpTransport(env: Env): EmailTransport {
  return {
    name: "http",
    async send(mail) {
      if (!env.EMAIL_HTTP_URL || !env.EMAIL_HTTP_TOKEN) throw new Error("EMAIL_HTTP_URL and EMAIL_HTTP_TOKEN must be set for the http transport");
      const res = await fetch(env.EMAIL_HTTP_URL, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.EMAIL_HTTP_TOKEN}`, "Idempotency-Key": mail.outboxId },
        body: JSON.stringify({
          from: mail.from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ...(mail.replyTo ? { reply_to: mail.replyTo } : {}),
          ...(mail.attachments?.length
            ? { attachments: mail.attachments.map((a) => ({ filename: a.filename, content_type: a.contentType, content: bytesToBase64(a.content) })) }
            : {}),
        }),
      });
      if (!res.ok) throw new Error(`E-mail provider answered ${res.status}`);
    },
  };
}

/** Cloudflare Email Service through the send_email binding (SEND_EMAIL), as a MIME message. */
export function cloudflareTransport(env: Env): EmailTransport {
  return {
    name: "cloudflare",
    async send(mail) {
      const binding = (env as unknown as { SEND_EMAIL?: { send(m: unknown): Promise<void> } }).SEND_EMAIL;
      if (!binding) throw new Error("The SEND_EMAIL binding is not configured");
      const { EmailMessage } = await import("cloudflare:email");
      await binding.send(new EmailMessage(mail.from, mail.to, buildMime(mail)));
    },
  };
}

function encodeHeader(value: string): string {
  // RFC 2047 for anything beyond printable ASCII.
  return /^[\x20-\x7e]*$/.test(value) ? value : `=?UTF-8?B?${bytesToBase64(new TextEncoder().encode(value))}?=`;
}

function b64Lines(s: string): string {
  return (bytesToBase64(new TextEncoder().encode(s)).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** Header values never carry a line break (header injection). */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}

function bytesB64Lines(bytes: Uint8Array): string {
  return (bytesToBase64(bytes).match(/.{1,76}/g) ?? []).join("\r\n");
}

/** A file name as a quoted MIME parameter: RFC 2047-encoded when not plain ASCII. */
function fileNameParam(name: string): string {
  return encodeHeader(headerValue(name).replace(/["\\]/g, "_"));
}

export function buildMime(mail: OutgoingEmail): string {
  const boundary = `b_${newId(12)}`;
  const attachments = mail.attachments ?? [];
  const mixed = attachments.length > 0 ? `m_${newId(12)}` : null;
  const head = [
    `From: ${headerValue(mail.from)}`,
    `To: ${headerValue(mail.to)}`,
    ...(mail.replyTo ? [`Reply-To: ${headerValue(mail.replyTo)}`] : []),
    `Subject: ${encodeHeader(headerValue(mail.subject))}`,
    `Message-ID: <${mail.outboxId}@workspace>`,
    "MIME-Version: 1.0",
    ...(mixed ? [`Content-Type: multipart/mixed; boundary="${mixed}"`, "", `--${mixed}`] : []),
  ];
  const files = mixed
    ? [
        ...attachments.flatMap((a) => [
          `--${mixed}`,
          `Content-Type: ${headerValue(a.contentType)}; name="${fileNameParam(a.filename)}"`,
          `Content-Disposition: attachment; filename="${fileNameParam(a.filename)}"`,
          "Content-Transfer-Encoding: base64",
          "",
          bytesB64Lines(a.content),
        ]),
        `--${mixed}--`,
      ]
    : [];
  return [
    ...head,
    `Content-Type: multipart/alternative; boundary="${boundary}"`,
    "",
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    b64Lines(mail.text),
    `--${boundary}`,
    "Content-Type: text/html; charset=utf-8",
    "Content-Transfer-Encoding: base64",
    "",
    b64Lines(mail.html),
    `--${boundary}--`,
    ...files,
    "",
  ].join("\r\n");
}

export function chooseTransport(env: Env): EmailTransport {
  switch (env.EMAIL_TRANSPORT) {
    case "http":
      return httpTransport(env);
    case "cloudflare":
      return cloudflareTransport(env);
    case "dev":
      return devTransport(env);
    default:
      throw new Error(`Unknown EMAIL_TRANSPORT ${String(env.EMAIL_TRANSPORT)}`);
  }
}
