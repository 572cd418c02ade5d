import { and, eq, inArray, lt, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { jobs } from "~/db/schema";
import { JOB_DEFINITIONS } from "./definitions.server";
import { jobMessageSchema } from "./enqueue.server";
import { deadLetter, retryDelaySeconds } from "./queue-helpers.server";

/** A 'running' job older than this is taken to have crashed and may be claimed again. */
const RUNNING_LEASE_MS = 10 * 60_000;

/**
 * JOBS consumer. Each message is claimed with a conditional UPDATE (pending/failed, or a
 * stale running lease), so two deliveries of one message cannot both run it, and a message
 * whose job is already done is acknowledged without doing the work again.
 */
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
    const def = JOB_DEFINITIONS[type];
    const now = Date.now();
    const claimed = await db
      .update(jobs)
      .set({ status: "running", startedAt: now, updatedAt: now })
      .where(
        and(
          eq(jobs.id, jobId),
          eq(jobs.tenantId, tenantId),
          eq(jobs.type, type),
          or(inArray(jobs.status, ["pending", "failed"]), and(eq(jobs.status, "running"), lt(jobs.updatedAt, now - RUNNING_LEASE_MS))),
        ),
      )
      .returning();
    const job = claimed[0];
    if (!job) {
      const [existing] = await db.select({ status: jobs.status }).from(jobs).where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId))).limit(1);
      if (!existing) {
        await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, "job row not found");
        msg.ack();
      } else if (existing.status === "done") {
        msg.ack();
      } else {
        // Another delivery holds it right now: look again later.
        msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
      }
      continue;
    }
    if (!def) {
      await db.update(jobs).set({ status: "failed", error: `Unknown job type ${type}`, updatedAt: Date.now() }).where(eq(jobs.id, jobId));
      await deadLetter(env, env.JOBS_DLQ, batch.queue, msg, `unknown job type ${type}`);
      msg.ack();
      continue;
    }
    try {
      const input = def.input.parse(job.inputs);
      const result = await def.run(input, {
        env,
        jobId,
        tenantId,
        performedBy: job.performedBy,
        progress: async (pct) => {
          await db
            .update(jobs)
            .set({ progress: Math.max(0, Math.min(100, Math.round(pct))), updatedAt: Date.now() })
            .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId)));
        },
      });
      await db
        .update(jobs)
        .set({ status: "done", progress: 100, result: result ?? null, error: null, attempts: job.attempts + 1, finishedAt: Date.now(), updatedAt: Date.now() })
        .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId)));
      msg.ack();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await db
        .update(jobs)
        .set({ status: "failed", error: message.slice(0, 1000), attempts: job.attempts + 1, updatedAt: Date.now() })
        .where(and(eq(jobs.id, jobId), eq(jobs.tenantId, tenantId)));
      // After max_retries the platform moves it to the dead-letter queue.
      msg.retry({ delaySeconds: retryDelaySeconds(msg.attempts) });
    }
  }
}

export async function purgeFinishedJobs(env: Env, olderThan: number): Promise<number> {
  const res = await getDb(env).delete(jobs).where(and(eq(jobs.status, "done"), lt(jobs.finishedAt, olderThan)));
  return res.meta.changes ?? 0;
}
