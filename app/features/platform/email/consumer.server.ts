import { and, eq, isNull, lt, ne, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { emailMessageSchema } from "./send.server";
import { isTemplateName, renderTemplate, TEMPLATES } from "./templates";
import { chooseTransport, type EmailTransport } from "./transports.server";
import { deadLetter, retryDelaySeconds } from "../jobs/queue-helpers.server";

/** How long one delivery attempt holds an e-mail against a simultaneous redelivery. */
export const EMAIL_CLAIM_SECONDS = 120;

/**
 * EMAIL consumer: render, hand to the configured transport, mark sent. Acknowledged per
 * message; a message whose outbox row is already 'sent' is acknowledged without sending,
 * so a redelivery does not send twice. Before sending, the attempt claims the row for
 * EMAIL_CLAIM_SECONDS with a conditional update; a second delivery of the same message
 * running at the same moment finds the claim taken and is retried after it, by when the
 * row is 'sent' (acknowledged then) or the claim has lapsed because the first attempt died.
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
    const now = Date.now();
    const claimed = await db
      .update(emailOutbox)
      .set({ claimedUntil: now + EMAIL_CLAIM_SECONDS * 1000 })
      .where(and(eq(emailOutbox.id, row.id), ne(emailOutbox.status, "sent"), or(isNull(emailOutbox.claimedUntil), lt(emailOutbox.claimedUntil, now))))
      .returning({ id: emailOutbox.id });
    if (claimed.length === 0) {
      msg.retry({ delaySeconds: EMAIL_CLAIM_SECONDS });
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
          claimedUntil: null,
          // Codes and magic links do not linger in the outbox once delivered.
          ...(TEMPLATES[row.template].sensitive ? { data: { scrubbed: true } } : {}),
        })
        .where(and(eq(emailOutbox.id, row.id), ne(emailOutbox.status, "sent")));
      msg.ack();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db.update(emailOutbox).set({ attempts: row.attempts + 1, error: message.slice(0, 500), claimedUntil: null }).where(eq(emailOutbox.id, row.id));
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
  }
}
