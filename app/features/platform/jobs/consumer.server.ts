import { and, eq, isNull, lt, ne, not, or, sql } from "drizzle-orm";
import { z } from "zod";
import { dbFor, fanOut, loadShardRoutes, sumOverShards, type Db } from "~/db/client.server";
import { jobs } from "~/db/schema";
import { tenantSuspendedSql } from "../suspended.server";
import { newId } from "~/utils/ids";
import { JOB_DEFINITIONS } from "./definitions.server";
import { jobMessageSchema } from "./enqueue.server";
import { deadLetter, recordDeadLetters, retryDelaySeconds, shardOrRetry, unwrapDeadLetter } from "./queue-helpers.server";
import { JobContinuation, PermanentJobError } from "./registry.server";

/** A 'running' job older than this is taken to have crashed and may be claimed again. */
const RUNNING_LEASE_MS = 10 * 60_000;

/**
 * A job that continues more often than this is taken to be looping: it is failed for good. At
 * one slice per invocation this bounds a job's total work.
 */
export const MAX_JOB_SLICES = 1000;

/**
 * While a job continues, its row's result column holds this (status pending, or failed and
 * retryable): the checkpoint for the next slice and how many slices ran. The final result replaces it.
 */
const continuationSchema = z.object({
  $continuation: z.object({ slices: z.number().int().nonnegative(), checkpoint: z.record(z.string(), z.unknown()) }),
});

/**
 * The states a delivery may take a job from: pending, parked (its tenant was suspended), failed
 * but retryable, or running with a lease so old its worker is taken to have crashed.
 */
function claimable(now: number) {
  return or(
    eq(jobs.status, "pending"),
    eq(jobs.status, "parked"),
    and(eq(jobs.status, "failed"), isNull(jobs.finishedAt)),
    and(eq(jobs.status, "running"), lt(jobs.updatedAt, now - RUNNING_LEASE_MS)),
  );
}

/** A progress write found the row claimed by someone else: stop, the newer run owns the job. */
class LeaseLostError extends Error {
  override name = "LeaseLostError";
}

/**
 * JOBS consumer. Each message is claimed with a conditional UPDATE (pending, failed but
 * retryable, or a stale running lease) that writes a fresh claim id, so two deliveries of one
 * message cannot both run it, and a message whose job is over (done, or failed for good) is
 * acknowledged without doing the work again. Every later write is fenced by that claim id:
 * a worker that outlived its lease cannot overwrite the run that took over.
 *
 * Failures that no retry can fix (the stored input does not parse, the type is unknown, the
 * job throws PermanentJobError) fail the job for good and go to the dead-letter queue at
 * once; anything else is retried with backoff until the platform dead-letters it.
 *
 * A suspended tenant's jobs do not run, whatever their type: the claim requires the tenant to
 * be active, and a job it refused for that reason is parked (status 'parked', everything else
 * on the row kept) and its message acknowledged, neither retried nor dead-lettered. Reinstating
 * the tenant queues its parked jobs again (resumeParkedJobs); the claim takes a parked job like
 * a pending one, so however many messages name it, it runs once.
 */

export async function handleJobsBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await loadShardRoutes(env);
  for (const msg of batch.messages) {
    const parsed = jobMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, "invalid message body");
      msg.ack();
      continue;
    }
    // The message names the tenant, so the job's row is read and written in the tenant's shard.
    const db = shardOrRetry(env, parsed.data.tenantId, msg);
    if (!db) continue;
    const delivery: Delivery = { env, db, queue: batch.queue, msg, body: parsed.data, now: Date.now() };
    const claimId = newId();
    const job = await claimJob(delivery, claimId);
    if (job) await runClaimedJob(delivery, job, claimId);
    else await answerUnclaimed(delivery);
  }
}

/** One delivered message of the JOBS queue, with the database of its tenant. */
type Delivery = { env: Env; db: Db; queue: string; msg: Message<unknown>; body: z.infer<typeof jobMessageSchema>; now: number };

async function claimJob({ db, body: { jobId, tenantId, type }, now }: Delivery, claimId: string) {
  const claimed = await db
    .update(jobs)
    .set({ status: "running", claimId, startedAt: now, updatedAt: now })
    .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId), eq(jobs.type, type), claimable(now), not(tenantSuspendedSql(tenantId))))
    .returning();
  return claimed[0];
}

/** The claim took nothing: the job is gone, over, its tenant suspended, or someone else runs it. */
async function answerUnclaimed({ env, db, queue, msg, body: { jobId, tenantId, type }, now }: Delivery): Promise<void> {
  const [existing] = await db
    .select({ status: jobs.status, finishedAt: jobs.finishedAt, suspended: sql<number>`${tenantSuspendedSql(tenantId)}` })
    .from(jobs)
    .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId)))
    .limit(1);
  if (!existing) {
    await deadLetter(env, env.JOBS_DLQ, queue, msg, "job row not found");
    msg.ack();
  } else if (existing.finishedAt !== null) {
    msg.ack();
  } else if (existing.suspended) {
    // Parked only while the tenant is still suspended, checked in the same statement: a
    // reinstatement in between leaves the job claimable and this message retries it.
    const parked = await db
      .update(jobs)
      .set({ status: "parked", claimId: null, updatedAt: now })
      .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId), eq(jobs.type, type), claimable(now), tenantSuspendedSql(tenantId)))
      .returning({ id: jobs.id });
    if (parked.length > 0) msg.ack();
    else msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  } else {
    // Another delivery holds it right now: look again later.
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  }
}

/** The writes of a claimed run: each lands only while this delivery still holds the claim. */
function fencedWrites(d: Delivery, claimId: string, attempts: number) {
  const { db, env, queue, msg, body } = d;
  const fenced = and(eq(jobs.id, body.jobId), eq(jobs.tenantId, body.tenantId), eq(jobs.status, "running"), eq(jobs.claimId, claimId));
  return {
    fenced,
    async failForGood(reason: string) {
      const res = await db
        .update(jobs)
        .set({ status: "failed", error: reason.slice(0, 1000), attempts, finishedAt: Date.now(), updatedAt: Date.now() })
        .where(fenced)
        .returning({ id: jobs.id });
      if (res.length > 0) await deadLetter(env, env.JOBS_DLQ, queue, msg, reason.slice(0, 1000));
      msg.ack();
    },
    async progress(pct: number) {
      const res = await db
        .update(jobs)
        .set({ progress: Math.max(0, Math.min(100, Math.round(pct))), updatedAt: Date.now() })
        .where(fenced)
        .returning({ id: jobs.id });
      if (res.length === 0) throw new LeaseLostError(`job ${body.jobId} was claimed by a newer delivery`);
    },
  };
}

type ClaimedJob = typeof jobs.$inferSelect;

async function runClaimedJob(d: Delivery, job: ClaimedJob, claimId: string): Promise<void> {
  const { env, body, msg } = d;
  const attempts = job.attempts + 1;
  const writes = fencedWrites(d, claimId, attempts);
  const def = JOB_DEFINITIONS[body.type];
  if (!def) return writes.failForGood(`unknown job type ${body.type}`);
  const input = def.input.safeParse(job.inputs);
  if (!input.success) {
    return writes.failForGood(`invalid job input: ${input.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`);
  }
  const continued = continuationSchema.safeParse(job.result);
  const slices = continued.success ? continued.data.$continuation.slices : 0;
  try {
    const result = await def.run(input.data, {
      env,
      jobId: body.jobId,
      tenantId: body.tenantId,
      performedBy: job.performedBy,
      checkpoint: continued.success ? continued.data.$continuation.checkpoint : null,
      progress: writes.progress,
    });
    if (result instanceof JobContinuation) return await continueJob(d, writes, slices, result.checkpoint);
    // Nothing updated means a newer delivery took the job over: its outcome stands.
    await d.db
      .update(jobs)
      .set({ status: "done", progress: 100, result: result ?? null, error: null, attempts, finishedAt: Date.now(), updatedAt: Date.now() })
      .where(writes.fenced);
    msg.ack();
  } catch (err) {
    await jobThrew(d, writes, attempts, err);
  }
}

/** A slice finished with a checkpoint: back to pending with it, then queued again. */
async function continueJob(d: Delivery, writes: ReturnType<typeof fencedWrites>, slices: number, checkpoint: Record<string, unknown>): Promise<void> {
  const { env, db, msg, body } = d;
  if (slices + 1 >= MAX_JOB_SLICES) return writes.failForGood(`job continued more than ${MAX_JOB_SLICES} times`);
  // Should the send fail, this message's own retry claims the pending job instead; a spare
  // message finds it running or done and does nothing, so a job never runs a slice twice at once.
  const parked = await db
    .update(jobs)
    .set({ status: "pending", claimId: null, result: { $continuation: { slices: slices + 1, checkpoint } }, updatedAt: Date.now() })
    .where(writes.fenced)
    .returning({ id: jobs.id });
  if (parked.length === 0) return msg.ack();
  try {
    await env.JOBS.send({ jobId: body.jobId, tenantId: body.tenantId, type: body.type, idempotencyKey: body.idempotencyKey });
    msg.ack();
  } catch {
    msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  }
}

async function jobThrew(d: Delivery, writes: ReturnType<typeof fencedWrites>, attempts: number, err: unknown): Promise<void> {
  const { db, msg } = d;
  if (err instanceof LeaseLostError) return msg.ack();
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof PermanentJobError) return writes.failForGood(message);
  const res = await db
    .update(jobs)
    .set({ status: "failed", error: message.slice(0, 1000), attempts, updatedAt: Date.now() })
    .where(writes.fenced)
    .returning({ id: jobs.id });
  // After max_retries the platform moves it to the dead-letter queue.
  if (res.length > 0) msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
  else msg.ack();
}

/**
 * Queues again every parked job of a tenant that is no longer suspended (all such tenants, on
 * every shard, when none is named) and returns how many. Rows stay 'parked' until a delivery
 * claims them, so a second call, or a message delivered twice, only adds a message the claim turns away.
 */
export async function resumeParkedJobs(env: Env, tenantId?: string): Promise<number> {
  await loadShardRoutes(env);
  const parkedIn = (db: Db) =>
    db
      .select({ jobId: jobs.id, tenantId: jobs.tenantId, type: jobs.type, idempotencyKey: jobs.idempotencyKey })
      .from(jobs)
      .where(and(eq(jobs.status, "parked"), tenantId ? eq(jobs.tenantId, tenantId) : undefined, not(tenantSuspendedSql(jobs.tenantId))))
      .orderBy(jobs.createdAt);
  const rows = tenantId ? await parkedIn(dbFor(env, tenantId)) : (await fanOut(env, parkedIn)).flatMap((s) => s.result);
  for (let i = 0; i < rows.length; i += 100) {
    await env.JOBS.sendBatch(rows.slice(i, i + 100).map((body) => ({ body })));
  }
  return rows.length;
}

export async function purgeFinishedJobs(env: Env, olderThan: number): Promise<number> {
  return sumOverShards(env, async function purgeFinishedJobsIn(db) {
    const res = await db.delete(jobs).where(and(eq(jobs.status, "done"), lt(jobs.finishedAt, olderThan)));
    return res.meta.changes ?? 0;
  });
}

const jobDeadLetterSchema = z.object({ jobId: z.string().min(1), tenantId: z.string().min(1) });

/**
 * JOBS dead-letter consumer: records every dead letter and closes the job it names. A job the
 * platform gave up on after its retries is still 'failed' with no finish time, which would let a
 * stray later delivery claim and run it again; setting finishedAt makes the failure final, as it
 * is for failures we dead-letter ourselves. A job that finished meanwhile is left as it is.
 */
export async function handleJobDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  await loadShardRoutes(env);
  for (const msg of batch.messages) {
    const letter = unwrapDeadLetter(msg, batch.queue);
    const parsed = jobDeadLetterSchema.safeParse(letter.body);
    if (!parsed.success) continue;
    const now = Date.now();
    await dbFor(env, parsed.data.tenantId)
      .update(jobs)
      .set({ status: "failed", error: sql`coalesce(${jobs.error}, ${letter.reason})`, finishedAt: now, updatedAt: now })
      .where(
        and(
          eq(jobs.id, parsed.data.jobId),
          eq(jobs.tenantId, parsed.data.tenantId),
          isNull(jobs.finishedAt),
          ne(jobs.status, "done"),
          // A parked job waits for its tenant's reinstatement; a stray dead letter does not end it.
          ne(jobs.status, "parked"),
        ),
      );
  }
  await recordDeadLetters(env, batch);
}
