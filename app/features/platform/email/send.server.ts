import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emailOutbox } from "~/db/schema";
import { newId } from "~/utils/ids";
import { isTemplateName, TEMPLATES, type TemplateData, type TemplateName } from "./templates";
import { z } from "zod";

export const emailMessageSchema = z.object({ outboxId: z.string().min(1) });
export type EmailMessage = z.infer<typeof emailMessageSchema>;

/**
 * Records the e-mail in the outbox and puts it on the EMAIL queue. Same idempotency key,
 * same e-mail: a retried request does not send twice. Throws if the queue refuses, so the
 * caller can tell the user ('Failed to send verification code...').
 */
export async function queueEmail<T extends TemplateName>(
  env: Env,
  opts: { tenantId: string | null; to: string; template: T; data: TemplateData<T>; idempotencyKey?: string },
): Promise<{ outboxId: string }> {
  if (!isTemplateName(opts.template)) throw new Error(`Unknown e-mail template ${opts.template}`);
  TEMPLATES[opts.template].schema.parse(opts.data);
  const id = newId();
  const key = opts.idempotencyKey ?? id;
  const db = getDb(env);
  const inserted = await db
    .insert(emailOutbox)
    .values({
      id,
      tenantId: opts.tenantId,
      idempotencyKey: key,
      template: opts.template,
      toAddress: opts.to.trim().toLowerCase(),
      data: opts.data as Record<string, unknown>,
      status: "queued",
      createdAt: Date.now(),
    })
    .onConflictDoNothing()
    .returning({ id: emailOutbox.id });
  if (inserted.length === 0) {
    // Already queued under this key: do not send again.
    const existing = await db.query.emailOutbox.findFirst({ where: (t, { eq }) => eq(t.idempotencyKey, key) });
    return { outboxId: existing?.id ?? id };
  }
  const message: EmailMessage = { outboxId: id };
  try {
    await env.EMAIL.send(message);
  } catch (err) {
    await db.update(emailOutbox).set({ status: "failed", error: "queue refused the message" }).where(eq(emailOutbox.id, id));
    throw err;
  }
  return { outboxId: id };
}
