import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// 'failed' is final (error says why: expired, cannot render, dead-lettered), except for
// 'queue refused the message', which a retry of queueEmail with the same key queues again.
// 'parked': its tenant is suspended; sent when the tenant is reinstated.
export const EMAIL_STATUSES = ["queued", "sent", "failed", "parked"] as const;

export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: text("id").primaryKey(),
    // null for platform mail (bare domain).
    tenantId: text("tenant_id"),
    idempotencyKey: text("idempotency_key").notNull(),
    template: text("template").notNull(),
    toAddress: text("to_address").notNull(),
    // Template data. For templates carrying a secret (codes, links) it becomes {"scrubbed":true}
    // once delivered, once the secret's lifetime has passed, or when delivery fails for good.
    data: text("data", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    transport: text("transport"),
    error: text("error"),
    createdAt: integer("created_at").notNull(),
    sentAt: integer("sent_at"),
    // While a consumer is handing the e-mail to the transport: until this instant (epoch ms)
    // no other delivery of the same message may send it. Cleared when the attempt ends.
    claimedUntil: integer("claimed_until"),
  },
  (t) => [
    uniqueIndex("email_outbox_idempotency").on(t.idempotencyKey),
    index("email_outbox_tenant_created").on(t.tenantId, t.createdAt),
    index("email_outbox_parked")
      .on(t.tenantId)
      .where(sql`${t.status} = 'parked'`),
  ],
);

export type DevMailAttachment = { filename: string; contentType: string; size: number; base64: string };

// Development transport only: what would have been delivered, readable at /dev/mailbox.
export const devMailbox = sqliteTable(
  "dev_mailbox",
  {
    id: text("id").primaryKey(),
    outboxId: text("outbox_id").notNull(),
    tenantId: text("tenant_id"),
    toAddress: text("to_address").notNull(),
    fromAddress: text("from_address").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    replyTo: text("reply_to"),
    // Attachments as delivered: [{ filename, contentType, size, base64 }] (development only).
    attachments: text("attachments", { mode: "json" })
      .$type<DevMailAttachment[]>()
      .notNull()
      .default(sql`'[]'`),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("dev_mailbox_outbox").on(t.outboxId), index("dev_mailbox_created").on(t.createdAt)],
);
