import { and, eq, ne } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { emailMessageSchema } from "./send.server";
import { isTemplateName, renderTemplate, TEMPLATES } from "./templates";
import { chooseTransport, type EmailTransport } from "./transports.server";
import { deadLetter, retryDelaySeconds } from "../jobs/queue-helpers.server";

/**
 * EMAIL consumer: render, hand to the configured transport, mark sent. Acknowledged per
 * message; a message whose outbox row is already 'sent' is acknowledged without sending,
 * so a redelivery does not send twice.
 */
export async function handleEmailBatch(batch: MessageBatch<unknown>, env: Env, transport: EmailTransport = chooseTransport(env)): Promise<void> {
  const db = getDb(env);
  for (const msg of batch.messages) {
    const parsed = emailMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      await deadLetter(env, env.EMAIL_DLQ, batch.queue, msg, "invalid message body");
      msg.ack();
      continue;
    }
    const row = await db.query.emailOutbox.findFirst({ where: (t, { eq }) => eq(t.id, parsed.data.outboxId) });
    if (!row) {
      await deadLetter(env, env.EMAIL_DLQ, batch.queue, msg, "outbox row not found");
      msg.ack();
      continue;
    }
    if (row.status === "sent") {
      msg.ack();
      continue;
    }
    try {
      if (!isTemplateName(row.template)) throw new Error(`Unknown template ${row.template}`);
      const rendered = renderTemplate(row.template, row.data);
      await transport.send({ ...rendered, outboxId: row.id, tenantId: row.tenantId, to: row.toAddress, from: env.EMAIL_FROM });
      await db
        .update(emailOutbox)
        .set({
          status: "sent",
          sentAt: Date.now(),
          transport: transport.name,
          attempts: row.attempts + 1,
          error: null,
          // Codes and magic links do not linger in the outbox once delivered.
          ...(TEMPLATES[row.template].sensitive ? { data: { scrubbed: true } } : {}),
        })
        .where(and(eq(emailOutbox.id, row.id), ne(emailOutbox.status, "sent")));
      msg.ack();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db.update(emailOutbox).set({ attempts: row.attempts + 1, error: message.slice(0, 500) }).where(eq(emailOutbox.id, row.id));
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
  }
}
