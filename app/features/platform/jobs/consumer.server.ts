import { and, eq, isNull, lt, ne, not, or, sql } from "drizzle-orm";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { jobs } from "~/db/schema";
import { tenantSuspendedSql } from "../suspended.server";
import { newId } from "~/utils/ids";
import { JOB_DEFINITIONS } from "./definitions.server";
import { jobMessageSchema } from "./enqueue.server";
import { deadLetter, recordDeadLetters, retryDelaySeconds, unwrapDeadLetter } from "./queue-helpers.server";
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
// eslint-disable-next-line max-lines-per-function -- issue 31 splits this consumer
export async function handleJobsBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = getDb(env);
  for (const msg of batch.messages) {
    const parsed = jobMessageSchema.safeParse(msg.body);
    if (!parsed.success) {
      await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, "invalid message body");
      msg.ack();
      continue;
    }
    const { jobId, tenantId, type } = parsed.data;
    const now = Date.now();
    const claimId = newId();
    const claimed = await db
      .update(jobs)
      .set({ status: "running", claimId, startedAt: now, updatedAt: now })
      .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId), eq(jobs.type, type), claimable(now), not(tenantSuspendedSql(tenantId))))
      .returning();
    const job = claimed[0];
    if (!job) {
      const [existing] = await db
        .select({ status: jobs.status, finishedAt: jobs.finishedAt, suspended: sql<number>`${tenantSuspendedSql(tenantId)}` })
        .from(jobs)
        .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId)))
        .limit(1);
      if (!existing) {
        await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, "job row not found");
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
      continue;
    }

    // Only lands while this delivery still holds the claim.
    const fenced = and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId), eq(jobs.status, "running"), eq(jobs.claimId, claimId));
    const attempts = job.attempts + 1;
    const failForGood = async (reason: string) => {
      const res = await db
        .update(jobs)
        .set({ status: "failed", error: reason.slice(0, 1000), attempts, finishedAt: Date.now(), updatedAt: Date.now() })
        .where(fenced)
        .returning({ id: jobs.id });
      if (res.length > 0) await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, reason.slice(0, 1000));
      msg.ack();
    };

    const def = JOB_DEFINITIONS[type];
    if (!def) {
      await failForGood(`unknown job type ${type}`);
      continue;
    }
    const input = def.input.safeParse(job.inputs);
    if (!input.success) {
      await failForGood(`invalid job input: ${input.error.issues.map((i) => `${i.path.join(".") || "(root)"} ${i.message}`).join("; ")}`);
      continue;
    }
    const continued = continuationSchema.safeParse(job.result);
    const slices = continued.success ? continued.data.$continuation.slices : 0;
    try {
      const result = await def.run(input.data, {
        env,
        jobId,
        tenantId,
        performedBy: job.performedBy,
        checkpoint: continued.success ? continued.data.$continuation.checkpoint : null,
        progress: async (pct) => {
          const res = await db
            .update(jobs)
            .set({ progress: Math.max(0, Math.min(100, Math.round(pct))), updatedAt: Date.now() })
            .where(fenced)
            .returning({ id: jobs.id });
          if (res.length === 0) throw new LeaseLostError(`job ${jobId} was claimed by a newer delivery`);
        },
      });
      if (result instanceof JobContinuation) {
        if (slices + 1 >= MAX_JOB_SLICES) {
          await failForGood(`job continued more than ${MAX_JOB_SLICES} times`);
          continue;
        }
        // Back to pending with the checkpoint, then queued again. Should the send fail, this
        // message's own retry claims the pending job instead; a spare message finds it running
        // or done and does nothing, so a job never runs a slice twice at once.
        const parked = await db
          .update(jobs)
          .set({ status: "pending", claimId: null, result: { $continuation: { slices: slices + 1, checkpoint: result.checkpoint } }, updatedAt: Date.now() })
          .where(fenced)
          .returning({ id: jobs.id });
        if (parked.length === 0) {
          msg.ack();
          continue;
        }
        try {
          await env.JOBS.send({ jobId, tenantId, type, idempotencyKey: parsed.data.idempotencyKey });
          msg.ack();
        } catch {
          msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
        }
        continue;
      }
      // Nothing updated means a newer delivery took the job over: its outcome stands.
      await db
        .update(jobs)
        .set({ status: "done", progress: 100, result: result ?? null, error: null, attempts, finishedAt: Date.now(), updatedAt: Date.now() })
        .where(fenced);
      msg.ack();
    } catch (err) {
      if (err instanceof LeaseLostError) {
        msg.ack();
        continue;
      }
      const message = err instanceof Error ? err.message : String(err);
      if (err instanceof PermanentJobError) {
        await failForGood(message);
        continue;
      }
      const res = await db
        .update(jobs)
        .set({ status: "failed", error: message.slice(0, 1000), attempts, updatedAt: Date.now() })
        .where(fenced)
        .returning({ id: jobs.id });
      // After max_retries the platform moves it to the dead-letter queue.
      if (res.length > 0) msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
      else msg.ack();
    }
  }
}

/**
 * Queues again every parked job of a tenant that is no longer suspended (all such tenants when
 * none is named) and returns how many. Rows stay 'parked' until a delivery claims them, so a
 * second call, or a message delivered twice, only adds a message the claim turns away.
 */
export async function resumeParkedJobs(env: Env, tenantId?: string): Promise<number> {
  const rows = await getDb(env)
    .select({ jobId: jobs.id, tenantId: jobs.tenantId, type: jobs.type, idempotencyKey: jobs.idempotencyKey })
    .from(jobs)
    .where(and(eq(jobs.status, "parked"), tenantId ? eq(jobs.tenantId, tenantId) : undefined, not(tenantSuspendedSql(jobs.tenantId))))
    .orderBy(jobs.createdAt);
  for (let i = 0; i < rows.length; i += 100) {
    await env.JOBS.sendBatch(rows.slice(i, i + 100).map((body) => ({ body })));
  }
  return rows.length;
}

export async function purgeFinishedJobs(env: Env, olderThan: number): Promise<number> {
  const res = await getDb(env)
    .delete(jobs)
    .where(and(eq(jobs.status, "done"), lt(jobs.finishedAt, olderThan)));
  return res.meta.changes ?? 0;
}

const jobDeadLetterSchema = z.object({ jobId: z.string().min(1), tenantId: z.string().min(1) });

/**
 * JOBS dead-letter consumer: records every dead letter and closes the job it names. A job the
 * platform gave up on after its retries is still 'failed' with no finish time, which would let a
 * stray later delivery claim and run it again; setting finishedAt makes the failure final, as it
 * is for failures we dead-letter ourselves. A job that finished meanwhile is left as it is.
 */
export async function handleJobDeadLetters(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  const db = getDb(env);
  for (const msg of batch.messages) {
    const letter = unwrapDeadLetter(msg, batch.queue);
    const parsed = jobDeadLetterSchema.safeParse(letter.body);
    if (!parsed.success) continue;
    const now = Date.now();
    await db
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
