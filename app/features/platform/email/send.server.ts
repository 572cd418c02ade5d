import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { insertWhere } from "~/db/insert-where.server";
import { emailOutbox } from "~/db/schema";
import { PermanentJobError } from "~/features/platform/jobs/registry.server";
import { newId } from "~/utils/ids";
import { isTemplateName, TEMPLATES, type TemplateData, type TemplateName } from "./templates";
import { z } from "zod";

// tenantId routes the consumer to the tenant's shard (null: platform mail); a message from before
// it was carried has none and is looked for on every shard.
export const emailMessageSchema = z.object({ outboxId: z.string().min(1), tenantId: z.string().min(1).nullable().optional() });
export type EmailMessage = z.infer<typeof emailMessageSchema>;

/** The error an outbox row carries when the EMAIL queue refused its message (nothing was sent). */
export const QUEUE_REFUSED = "queue refused the message";

/**
 * The data given for an e-mail does not fit its template (a field too long, say). Sending it
 * again cannot help, so a job that hits it fails for good and is dead-lettered at once (it is a
 * PermanentJobError) instead of being retried; in a request it is a bug to fix, not a user error.
 */
export class TemplateDataError extends PermanentJobError {
  override name = "TemplateDataError";
  constructor(
    readonly template: string,
    readonly issues: z.ZodError["issues"],
  ) {
    super(`e-mail template ${template}: ${issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`);
  }
}

/**
 * Records the e-mail in the outbox and puts it on the EMAIL queue. Same idempotency key (within
 * the tenant), same e-mail: a retried request does not send twice. Throws if the queue refuses,
 * so the caller can tell the user ('We could not send your sign-in code...'); the row is then
 * 'failed', and a retry with the same key queues it again.
 *
 * `alongside` gives statements (an audit entry) that land in the same D1 batch as the outbox
 * row. When an idempotency key matches an earlier row the insert is a no-op but the batch still
 * runs: make such statements conditional on the row with `outboxId` existing.
 */
export async function queueEmail<T extends TemplateName>(env: Env, opts: QueueEmailOptions<T>): Promise<{ outboxId: string }> {
  const res = await queue(env, opts);
  if (!res.outboxId) throw new Error("E-mail outbox row vanished while queueing");
  return { outboxId: res.outboxId };
}

/**
 * queueEmail whose outbox row is inserted only while `onlyIf` holds, checked inside the same D1
 * batch as `alongside`: when it does not hold nothing is recorded or sent and `outboxId` is null.
 * It is how a state change and its e-mail land together or not at all (only the transition that
 * won sends).
 */
export async function queueEmailIf<T extends TemplateName>(env: Env, opts: QueueEmailOptions<T> & { onlyIf: SQL }): Promise<{ outboxId: string | null }> {
  return queue(env, opts);
}

type QueueEmailOptions<T extends TemplateName> = {
  tenantId: string | null;
  to: string;
  template: T;
  data: TemplateData<T>;
  idempotencyKey?: string;
  alongside?: (db: Db, outboxId: string) => BatchItem<"sqlite">[];
};

async function queue<T extends TemplateName>(env: Env, opts: QueueEmailOptions<T> & { onlyIf?: SQL }): Promise<{ outboxId: string | null }> {
  if (!isTemplateName(opts.template)) throw new Error(`Unknown e-mail template ${opts.template}`);
  const checked = TEMPLATES[opts.template].schema.safeParse(opts.data);
  if (!checked.success) throw new TemplateDataError(opts.template, checked.error.issues);
  const id = newId();
  // The unique index is global: scope the caller's key by tenant so two tenants using the same
  // key (say `welcome:${email}`) do not swallow each other's mail.
  const key = opts.idempotencyKey ? `${opts.tenantId ?? "platform"}:${opts.idempotencyKey}` : id;
  const db = dbFor(env, opts.tenantId);
  const toAddress = opts.to.trim().toLowerCase();
  const createdAt = Date.now();
  const row = {
    id,
    tenantId: opts.tenantId,
    idempotencyKey: key,
    template: opts.template,
    toAddress,
    data: opts.data as Record<string, unknown>,
    status: "queued" as const,
    createdAt,
  };
  const insert = opts.onlyIf
    ? // The same row, inserted only while the condition holds (the WHERE also settles SQLite's
      // parse of INSERT ... SELECT ... ON CONFLICT).
      insertWhere(db, emailOutbox, { ...row, data: JSON.stringify(row.data) }, opts.onlyIf)
        .onConflictDoNothing()
        .returning({ id: emailOutbox.id })
    : db.insert(emailOutbox).values(row).onConflictDoNothing().returning({ id: emailOutbox.id });
  const extra = opts.alongside?.(db, id) ?? [];
  const inserted = extra.length > 0 ? (await db.batch([insert, ...extra]))[0] : await insert;
  if (inserted.length > 0) {
    await sendToQueue(env, db, opts.tenantId, id);
    return { outboxId: id };
  }
  const existing = await db.query.emailOutbox.findFirst({ where: (t, { eq }) => eq(t.idempotencyKey, key) });
  if (!existing) return { outboxId: null };
  // Failed because the queue refused it: it never left, so this retry sends it. (Any other
  // failure is final: an expired secret, a message that cannot render.) The conditional
  // update makes sure two concurrent retries queue it once.
  const reclaimed = await db
    .update(emailOutbox)
    .set({ status: "queued", error: null })
    .where(and(eq(emailOutbox.id, existing.id), eq(emailOutbox.status, "failed"), eq(emailOutbox.error, QUEUE_REFUSED)))
    .returning({ id: emailOutbox.id });
  if (reclaimed.length > 0) await sendToQueue(env, db, opts.tenantId, existing.id);
  // Otherwise already queued or sent under this key: do not send again.
  return { outboxId: existing.id };
}

async function sendToQueue(env: Env, db: Db, tenantId: string | null, outboxId: string): Promise<void> {
  const message: EmailMessage = { outboxId, tenantId };
  try {
    await env.EMAIL.send(message);
  } catch (err) {
    await db.update(emailOutbox).set({ status: "failed", error: QUEUE_REFUSED }).where(eq(emailOutbox.id, outboxId));
    throw err;
  }
}
