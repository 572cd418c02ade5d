import { and, eq, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { insertWhere } from "~/db/insert-where.server";
import { jobs } from "~/db/schema";
import { newId } from "~/utils/ids";
import { JOB_DEFINITIONS, type JobInput, type JobType } from "./definitions.server";

export const jobMessageSchema = z.object({
  jobId: z.string().min(1),
  tenantId: z.string().min(1),
  type: z.string().min(1),
  idempotencyKey: z.string().min(1),
});
export type JobMessage = z.infer<typeof jobMessageSchema>;

/**
 * Validates the input against the job type's schema, records the job (pending, progress 0)
 * and sends it to JOBS, delivered no sooner than `delaySeconds` when given. The same
 * idempotency key within a tenant gives the same job and is not queued twice. `alongside` gives
 * statements (a one-time submission key) that land in the same D1 batch as the job's row.
 */
export async function enqueue<T extends JobType>(
  env: Env,
  opts: {
    tenantId: string;
    type: T;
    input: JobInput<T>;
    performedBy: string | null;
    idempotencyKey?: string;
    delaySeconds?: number;
    alongside?: (db: Db) => BatchItem<"sqlite">[];
  },
): Promise<{ jobId: string; created: boolean }> {
  const def = JOB_DEFINITIONS[opts.type];
  if (!def) throw new Error(`Unknown job type ${opts.type}`);
  const input = def.input.parse(opts.input) as Record<string, unknown>;
  const db = dbFor(env, opts.tenantId);
  const now = Date.now();
  const id = newId();
  const key = opts.idempotencyKey ?? id;
  const insert = db
    .insert(jobs)
    .values({
      id,
      tenantId: opts.tenantId,
      type: opts.type,
      inputs: input,
      status: "pending",
      progress: 0,
      idempotencyKey: key,
      performedBy: opts.performedBy,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  const extra = opts.alongside?.(db) ?? [];
  const inserted = extra.length > 0 ? (await db.batch([insert, ...extra]))[0] : await insert;
  if (inserted.length === 0) {
    const [existing] = await db
      .select({ id: jobs.id })
      .from(jobs)
      .where(and(eq(jobs.tenantId, opts.tenantId), eq(jobs.idempotencyKey, key)))
      .limit(1);
    return { jobId: existing.id, created: false };
  }
  const message: JobMessage = { jobId: id, tenantId: opts.tenantId, type: opts.type, idempotencyKey: key };
  try {
    await env.JOBS.send(message, opts.delaySeconds ? { delaySeconds: opts.delaySeconds } : undefined);
  } catch (err) {
    // A row left behind would make the caller's retry (same key) find the job and skip the
    // send, so it would never run: remove it and let the retry start afresh.
    await db.delete(jobs).where(and(eq(jobs.id, id), eq(jobs.tenantId, opts.tenantId)));
    throw err;
  }
  return { jobId: id, created: true };
}

/**
 * For a job whose work reads what the caller's own D1 batch writes: the job's row as a statement
 * of that batch, landing only while `onlyIf` holds (checked in the same statement, so it sees the
 * batch's earlier writes). Nothing is sent: after the batch commits, `sendCommittedJob` sends the
 * message, so the job never runs against state that is not stored. A row already under the key
 * is kept as it is.
 */
export function jobRowWhen<T extends JobType>(
  db: Db,
  opts: { tenantId: string; type: T; input: JobInput<T>; performedBy: string | null; idempotencyKey: string },
  onlyIf: SQL,
) {
  const def = JOB_DEFINITIONS[opts.type];
  if (!def) throw new Error(`Unknown job type ${opts.type}`);
  const input = def.input.parse(opts.input) as Record<string, unknown>;
  const now = Date.now();
  return insertWhere(
    db,
    jobs,
    {
      id: newId(),
      tenantId: opts.tenantId,
      type: opts.type,
      inputs: JSON.stringify(input),
      status: "pending",
      progress: 0,
      attempts: 0,
      idempotencyKey: opts.idempotencyKey,
      performedBy: opts.performedBy,
      createdAt: now,
      updatedAt: now,
    },
    onlyIf,
  ).onConflictDoNothing();
}

/** Sends the message of a job whose row is committed (see `jobRowWhen`); false when there is no such row. */
export async function sendCommittedJob(env: Env, tenantId: string, type: JobType, idempotencyKey: string): Promise<boolean> {
  const [row] = await dbFor(env, tenantId)
    .select({ id: jobs.id })
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.idempotencyKey, idempotencyKey)))
    .limit(1);
  if (!row) return false;
  const message: JobMessage = { jobId: row.id, tenantId, type, idempotencyKey };
  await env.JOBS.send(message);
  return true;
}

export async function getJob(env: Env, tenantId: string, jobId: string) {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(jobs)
    .where(and(eq(jobs.tenantId, tenantId), eq(jobs.id, jobId)))
    .limit(1);
  return row ?? null;
}
