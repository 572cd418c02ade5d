import { dbFor, globalDb, ShardRoutingError, type Db } from "~/db/client.server";
import { deadLetters } from "~/db/schema";
import { newId } from "~/utils/ids";

/** Exponential backoff for msg.retry(): 10 s, 20 s, 40 s ... capped at 15 minutes. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(900, 10 * 2 ** Math.max(0, attempts - 1));
}

/**
 * A message that can never succeed (its body does not parse, its row is gone, its input is
 * invalid) goes straight to the dead-letter queue instead of burning retries; the caller then
 * acknowledges it.
 */
export async function deadLetter(env: Env, dlq: Queue, queue: string, msg: Message<unknown>, reason: string): Promise<void> {
  await dlq.send({ queue, messageId: msg.id, body: msg.body, reason });
}

/**
 * The database of a message's tenant, or null when its route is refused (a shard this Worker
 * lacks, a malformed value): that message is retried later, and the batch's other tenants go on.
 */
export function shardOrRetry(env: Env, tenantId: string | null, msg: Message<unknown>): Db | null {
  try {
    return dbFor(env, tenantId);
  } catch (err) {
    if (!(err instanceof ShardRoutingError)) throw err;
    console.error(JSON.stringify({ event: "shard_route_refused", code: err.code, tenantId, messageId: msg.id }));
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    return null;
  }
}

/** The queue a dead-letter queue serves (wrangler.toml names them `<queue>-dlq`). */
export function sourceQueue(dlqName: string): string {
  return dlqName.replace(/-dlq$/, "");
}

export type DeadLetter = { queue: string; messageId: string; body: unknown; reason: string; tenantId: string | null };

/**
 * What a dead-letter queue delivery stands for: either our own forward (deadLetter() above,
 * with a reason) or a message the platform moved after max_retries.
 */
export function unwrapDeadLetter(msg: Message<unknown>, dlqName: string): DeadLetter {
  const b = msg.body as { queue?: unknown; messageId?: unknown; body?: unknown; reason?: unknown } | null;
  const forwarded = b && typeof b === "object" && typeof b.reason === "string" && typeof b.messageId === "string";
  const inner = forwarded ? b.body : msg.body;
  const tenantId =
    inner && typeof inner === "object" && typeof (inner as { tenantId?: unknown }).tenantId === "string" ? (inner as { tenantId: string }).tenantId : null;
  return {
    // Always the queue the message was meant for, whichever way it got here, so a replay knows where to send it.
    queue: forwarded && typeof b.queue === "string" ? b.queue : sourceQueue(dlqName),
    messageId: forwarded ? (b.messageId as string) : msg.id,
    body: inner,
    reason: forwarded ? (b.reason as string) : "retries exhausted",
    tenantId,
  };
}

/** The dead-letter consumers' job: keep every dead letter in D1, once per message id. */
export async function recordDeadLetters(env: Env, batch: MessageBatch<unknown>): Promise<void> {
  const db = globalDb(env);
  for (const msg of batch.messages) {
    const d = unwrapDeadLetter(msg, batch.queue);
    await db
      .insert(deadLetters)
      .values({
        id: newId(),
        queue: d.queue,
        messageId: d.messageId,
        tenantId: d.tenantId,
        body: JSON.stringify(d.body ?? null).slice(0, 10_000),
        reason: d.reason,
        createdAt: Date.now(),
      })
      .onConflictDoNothing();
    msg.ack();
  }
}
