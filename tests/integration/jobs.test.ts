import { env } from "cloudflare:workers";
import { and, eq, like } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { deadLetters, jobs, notifications } from "~/db/schema";
import { handleJobsBatch, purgeFinishedJobs } from "~/features/platform/jobs/consumer.server";
import { JOB_DEFINITIONS } from "~/features/platform/jobs/definitions.server";
import { enqueue, getJob, type JobMessage } from "~/features/platform/jobs/enqueue.server";
import { continueJob, defineJob, PermanentJobError, type JobDefinition } from "~/features/platform/jobs/registry.server";
import { createTenant, createUser } from "../factories";
import { deliverMessages, messageId, poll, queueHops, recordingQueue } from "./queue-helpers";

const JOBS_QUEUE = "cis-workspace-jobs";
const DLQ = "cis-workspace-jobs-dlq";

// enqueue() only accepts registered types with their input type; the tests also send
// test-only types and deliberately bad input, so they go through an untyped view of it.
type UntypedEnqueue = (
  e: Env,
  opts: { tenantId: string; type: string; input: unknown; performedBy: string | null; idempotencyKey?: string },
) => ReturnType<typeof enqueue>;
const enqueueUntyped = enqueue as unknown as UntypedEnqueue;

/** Enqueue without the real JOBS producer, so the background consumer does not race the test. */
async function enqueueRecorded(opts: Parameters<UntypedEnqueue>[1]) {
  const { sent, queue } = recordingQueue();
  const result = await enqueueUntyped({ ...env, JOBS: queue }, opts);
  return { ...result, sent: sent as JobMessage[] };
}

// Test-only job types, registered per test and removed afterwards.
const registered: string[] = [];
function registerJob<S extends z.ZodType>(def: JobDefinition<S>) {
  JOB_DEFINITIONS[def.type] = def as unknown as JobDefinition;
  registered.push(def.type);
  return def;
}
afterEach(() => {
  for (const t of registered.splice(0)) delete JOB_DEFINITIONS[t];
});

describe("enqueue", () => {
  it("validates the input against the job type's schema and refuses unknown types", async () => {
    const t = await createTenant();
    await expect(
      enqueueRecorded({ tenantId: t.id, type: "notifications.send", input: { userId: "", title: "x", type: "t" }, performedBy: null }),
    ).rejects.toThrow();
    await expect(enqueueRecorded({ tenantId: t.id, type: "no.such.job", input: {}, performedBy: null })).rejects.toThrow(/Unknown job type/);
    const rows = await getDb(env).select().from(jobs).where(eq(jobs.tenantId, t.id));
    expect(rows).toHaveLength(0);
  });

  it("records a pending job and queues one message; the same idempotency key gives the same job and no second message", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const input = { userId: u.id, type: "info", title: "Hello" };
    const first = await enqueueRecorded({ tenantId: t.id, type: "notifications.send", input, performedBy: u.id, idempotencyKey: "welcome:1" });
    const second = await enqueueRecorded({ tenantId: t.id, type: "notifications.send", input, performedBy: u.id, idempotencyKey: "welcome:1" });

    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.jobId).toBe(first.jobId);
    expect(first.sent).toEqual([{ jobId: first.jobId, tenantId: t.id, type: "notifications.send", idempotencyKey: "welcome:1" }]);
    expect(second.sent).toEqual([]);

    const rows = await getDb(env).select().from(jobs).where(eq(jobs.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.jobId, status: "pending", progress: 0, attempts: 0, performedBy: u.id });
    // Defaults from the schema are applied before the inputs are stored.
    expect(rows[0].inputs).toEqual({ ...input, message: "" });
  });

  it("scopes idempotency keys to the tenant", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const input = { userId: "u1", type: "info", title: "Hello" };
    const ja = await enqueueRecorded({ tenantId: a.id, type: "notifications.send", input, performedBy: null, idempotencyKey: "same" });
    const jb = await enqueueRecorded({ tenantId: b.id, type: "notifications.send", input, performedBy: null, idempotencyKey: "same" });
    expect(jb.created).toBe(true);
    expect(jb.jobId).not.toBe(ja.jobId);
    expect(jb.sent).toHaveLength(1);
  });

  it("lets a retried request queue the job again when the queue refused the first send", async () => {
    const t = await createTenant();
    const refusing = {
      async send() {
        throw new Error("queue unavailable");
      },
    } as unknown as Queue;
    const input = { userId: "u1", type: "info", title: "Hello" };
    await expect(
      enqueueUntyped({ ...env, JOBS: refusing }, { tenantId: t.id, type: "notifications.send", input, performedBy: null, idempotencyKey: "k" }),
    ).rejects.toThrow(/queue unavailable/);
    const retry = await enqueueRecorded({ tenantId: t.id, type: "notifications.send", input, performedBy: null, idempotencyKey: "k" });
    expect(retry.sent).toHaveLength(1);
    const rows = await getDb(env).select().from(jobs).where(eq(jobs.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(retry.sent[0].jobId).toBe(rows[0].id);
  });
});

describe("JOBS consumer", () => {
  it("runs a job: pending -> running (with progress) -> done at 100, and acknowledges the message", async () => {
    const t = await createTenant();
    const seen: { status?: string; progress?: number; input?: unknown } = {};
    const def = registerJob(
      defineJob({
        type: `test.progress.${messageId()}`,
        input: z.object({ n: z.number() }),
        async run(input, ctx) {
          seen.input = input;
          seen.status = (await getJob(ctx.env, ctx.tenantId, ctx.jobId))?.status;
          await ctx.progress(42.4);
          seen.progress = (await getJob(ctx.env, ctx.tenantId, ctx.jobId))?.progress;
          return { doubled: input.n * 2 };
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: { n: 21 }, performedBy: null });
    expect((await getJob(env, t.id, jobId))?.status).toBe("pending");

    const id = messageId();
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }]);

    expect(seen).toEqual({ input: { n: 21 }, status: "running", progress: 42 });
    const job = await getJob(env, t.id, jobId);
    expect(job).toMatchObject({ status: "done", progress: 100, result: { doubled: 42 }, error: null, attempts: 1 });
    expect(job?.startedAt).toBeTypeOf("number");
    expect(job?.finishedAt).toBeGreaterThanOrEqual(job!.startedAt!);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(result.ackAll).toBe(false);
  });

  it("dispatches notifications.send and writes the notification", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const { jobId, sent } = await enqueueRecorded({
      tenantId: t.id,
      type: "notifications.send",
      input: { userId: u.id, type: "info", title: "Statement ready", link: "/cis" },
      performedBy: u.id,
    });
    await deliverMessages(JOBS_QUEUE, [{ body: sent[0] }]);
    const rows = await getDb(env).select().from(notifications).where(eq(notifications.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ targetUserId: u.id, title: "Statement ready", link: "/cis", fromUserId: u.id });
    expect((await getJob(env, t.id, jobId))?.result).toEqual({ notificationId: rows[0].id });
  });

  it("acknowledges each message on its own: one failure does not retry its neighbours", async () => {
    const t = await createTenant();
    const ok = registerJob(defineJob({ type: `test.ok.${messageId()}`, input: z.object({}), async run() {} }));
    const bad = registerJob(
      defineJob({
        type: `test.bad.${messageId()}`,
        input: z.object({}),
        async run() {
          throw new Error("nope");
        },
      }),
    );
    const a = await enqueueRecorded({ tenantId: t.id, type: ok.type, input: {}, performedBy: null });
    const b = await enqueueRecorded({ tenantId: t.id, type: bad.type, input: {}, performedBy: null });
    const c = await enqueueRecorded({ tenantId: t.id, type: ok.type, input: {}, performedBy: null });
    const ids = [messageId(), messageId(), messageId()];
    const { result } = await deliverMessages(JOBS_QUEUE, [
      { id: ids[0], body: a.sent[0] },
      { id: ids[1], body: b.sent[0] },
      { id: ids[2], body: c.sent[0] },
    ]);
    expect(result.explicitAcks.sort()).toEqual([ids[0], ids[2]].sort());
    expect(result.retryMessages.map((r) => r.msgId)).toEqual([ids[1]]);
    expect((await getJob(env, t.id, a.jobId))?.status).toBe("done");
    expect((await getJob(env, t.id, b.jobId))?.status).toBe("failed");
    expect((await getJob(env, t.id, c.jobId))?.status).toBe("done");
  });

  it("records a failure, retries with exponential backoff, and succeeds on a later delivery", async () => {
    const t = await createTenant();
    let failuresLeft = 2;
    let runs = 0;
    const def = registerJob(
      defineJob({
        type: `test.flaky.${messageId()}`,
        input: z.object({}),
        async run() {
          runs += 1;
          if (failuresLeft-- > 0) throw new Error(`provider timed out (${runs})`);
          return { ok: true };
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId();

    const first = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 1 }]);
    expect(first.result.explicitAcks).toEqual([]);
    expect(first.result.retryMessages).toEqual([{ msgId: id, delaySeconds: 10 }]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", error: "provider timed out (1)", attempts: 1 });

    const second = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 3 }]);
    // Backoff grows with the delivery attempt: 10 s, 20 s, 40 s ...
    expect(second.result.retryMessages).toEqual([{ msgId: id, delaySeconds: 40 }]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", error: "provider timed out (2)", attempts: 2 });

    const third = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 4 }]);
    expect(third.result.explicitAcks).toEqual([id]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", progress: 100, error: null, attempts: 3, result: { ok: true } });
    expect(runs).toBe(3);
  });

  it("caps the backoff", async () => {
    const t = await createTenant();
    const def = registerJob(
      defineJob({
        type: `test.fail.${messageId()}`,
        input: z.object({}),
        async run() {
          throw new Error("always");
        },
      }),
    );
    const { sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const { result } = await deliverMessages(JOBS_QUEUE, [{ body: sent[0], attempts: 30 }]);
    expect(result.retryMessages[0].delaySeconds).toBe(900);
  });

  it("does the work once when a message is redelivered, including after it is done", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const { jobId, sent } = await enqueueRecorded({
      tenantId: t.id,
      type: "notifications.send",
      input: { userId: u.id, type: "info", title: "Once" },
      performedBy: null,
    });
    const id = messageId();
    const first = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }]);
    const again = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 2 }]);
    expect(first.result.explicitAcks).toEqual([id]);
    // Already done: acknowledged, not retried, not run again.
    expect(again.result.explicitAcks).toEqual([id]);
    expect(again.result.retryMessages).toEqual([]);
    const rows = await getDb(env).select().from(notifications).where(eq(notifications.tenantId, t.id));
    expect(rows).toHaveLength(1);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", attempts: 1 });
  });

  it("runs a job once when two deliveries arrive at the same time", async () => {
    const t = await createTenant();
    let runs = 0;
    const def = registerJob(
      defineJob({
        type: `test.slow.${messageId()}`,
        input: z.object({}),
        async run() {
          runs += 1;
          await new Promise((r) => setTimeout(r, 200));
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId();
    const [a, b] = await Promise.all([deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }]), deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 2 }])]);
    expect(runs).toBe(1);
    // One delivery did the work; the other saw it in progress and asked to be redelivered later.
    const outcomes = [a.result, b.result]
      .map((r) => (r.explicitAcks.includes(id) ? "ack" : r.retryMessages.some((m) => m.msgId === id) ? "retry" : "none"))
      .sort();
    expect(outcomes).toEqual(["ack", "retry"]);
    expect((await getJob(env, t.id, jobId))?.status).toBe("done");
  });

  it("ignores a stale worker's progress and final write once its lease was taken over by another delivery", async () => {
    const t = await createTenant();
    let runs = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inFirstRun = new Promise<void>((r) => (entered = r));
    const def = registerJob(
      defineJob({
        type: `test.stale.${messageId()}`,
        input: z.object({}),
        async run(_input, ctx) {
          runs += 1;
          const run = runs;
          if (run === 1) {
            entered();
            await gate;
            // The lease lapsed while this worker was stuck; it carries on as if nothing happened.
            await ctx.progress(10);
          }
          return { run };
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId();
    const stale = deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }]);
    await inFirstRun;
    // The first worker is stuck past its lease: a redelivery claims the job and finishes it.
    await getDb(env)
      .update(jobs)
      .set({ updatedAt: Date.now() - 11 * 60_000 })
      .where(eq(jobs.id, jobId));
    const fresh = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 2 }]);
    expect(fresh.result.explicitAcks).toEqual([id]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", progress: 100, result: { run: 2 } });

    release();
    const late = await stale;
    // The stale worker's writes are fenced off: the newer run's result stands.
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", progress: 100, result: { run: 2 }, error: null });
    expect(late.result.retryMessages).toEqual([]);
    expect(late.result.explicitAcks).toEqual([id]);
    expect(runs).toBe(2);
  });

  it("dead-letters a job whose stored input fails validation on the first delivery, without retrying", async () => {
    const t = await createTenant();
    let runs = 0;
    const def = registerJob(
      defineJob({
        type: `test.input.${messageId()}`,
        input: z.object({ n: z.number() }),
        async run() {
          runs += 1;
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: { n: 1 }, performedBy: null });
    // Stored by an older version of the job whose schema differed: it can never parse.
    await getDb(env)
      .update(jobs)
      .set({ inputs: { n: "one" } })
      .where(eq(jobs.id, jobId));
    const id = messageId("bad-input");
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 1 }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(runs).toBe(0);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", attempts: 1 });
    expect((await getJob(env, t.id, jobId))?.error).toMatch(/invalid job input/);
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row).toMatchObject({ queue: JOBS_QUEUE, tenantId: t.id });
    expect(row.reason).toMatch(/invalid job input/);

    // A later copy of the same message finds the job failed for good: acknowledged, not run.
    const again = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 2 }]);
    expect(again.result.explicitAcks).toEqual([id]);
    expect(again.result.retryMessages).toEqual([]);
    expect(runs).toBe(0);
  });

  it("dead-letters a job that throws PermanentJobError at once instead of retrying it", async () => {
    const t = await createTenant();
    let runs = 0;
    const def = registerJob(
      defineJob({
        type: `test.permanent.${messageId()}`,
        input: z.object({}),
        async run() {
          runs += 1;
          throw new PermanentJobError("subcontractor was deleted");
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId("permanent");
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 1 }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect(runs).toBe(1);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", error: "subcontractor was deleted", attempts: 1 });
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row.reason).toBe("subcontractor was deleted");
  });

  it("dead-letters a message naming a job type nobody knows, on the first delivery", async () => {
    const t = await createTenant();
    const def = registerJob(defineJob({ type: `test.gone.${messageId()}`, input: z.object({}), async run() {} }));
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    // The type was removed in a later release.
    delete JOB_DEFINITIONS[def.type];
    const id = messageId("unknown-type");
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    expect((await getJob(env, t.id, jobId))?.status).toBe("failed");
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row.reason).toMatch(/unknown job type/);
  });

  it("does not let a message for one tenant run another tenant's job", async () => {
    const a = await createTenant();
    const b = await createTenant();
    const { jobId, sent } = await enqueueRecorded({
      tenantId: a.id,
      type: "notifications.send",
      input: { userId: "u", type: "info", title: "Mine" },
      performedBy: null,
    });
    const forged = { ...sent[0], tenantId: b.id };
    const id = messageId();
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: forged }]);
    expect(result.explicitAcks).toEqual([id]);
    expect((await getJob(env, a.id, jobId))?.status).toBe("pending");
    const rows = await getDb(env).select().from(notifications).where(eq(notifications.tenantId, b.id));
    expect(rows).toHaveLength(0);
    // Nothing to do for that message, ever: it is dead-lettered rather than retried.
    await poll(() =>
      getDb(env)
        .select()
        .from(deadLetters)
        .where(and(eq(deadLetters.messageId, id)))
        .get(),
    );
  });
});

describe("jobs in slices", () => {
  /** Sums 1..5, two numbers per slice, handing the running sum on as its checkpoint. */
  function summingJob(failOnceAt?: number) {
    const seen: (Record<string, unknown> | null)[] = [];
    let failed = false;
    const def = registerJob(
      defineJob({
        type: `test.slices.${messageId()}`,
        input: z.object({ upTo: z.number() }),
        async run(input, ctx) {
          seen.push(ctx.checkpoint);
          const from = z.object({ next: z.number(), sum: z.number() }).parse(ctx.checkpoint ?? { next: 1, sum: 0 });
          if (failOnceAt === from.next && !failed) {
            failed = true;
            throw new Error("slice failed");
          }
          let { next, sum } = from;
          for (let k = 0; k < 2 && next <= input.upTo; k++) sum += next++;
          await ctx.progress(((next - 1) / input.upTo) * 100);
          return next > input.upTo ? { sum } : continueJob({ next, sum });
        },
      }),
    );
    return { def, seen };
  }

  it("runs a job in slices: each continuation parks it as pending with its checkpoint and queues it again, until it is done", async () => {
    const t = await createTenant();
    const { def, seen } = summingJob();
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: { upTo: 5 }, performedBy: null });
    const requeued = recordingQueue();
    const handle = (batch: MessageBatch<unknown>) => handleJobsBatch(batch, { ...env, JOBS: requeued.queue } as Env);

    const id = messageId();
    const first = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0] }], handle);
    expect(first.result.explicitAcks).toEqual([id]);
    expect(requeued.sent).toEqual([sent[0]]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "pending", progress: 40, finishedAt: null, claimId: null });

    await deliverMessages(JOBS_QUEUE, [{ body: requeued.sent[0] }], handle);
    expect(requeued.sent).toHaveLength(2);
    await deliverMessages(JOBS_QUEUE, [{ body: requeued.sent[1] }], handle);
    // Done: nothing more is queued.
    expect(requeued.sent).toHaveLength(2);
    expect(seen).toEqual([null, { next: 3, sum: 3 }, { next: 5, sum: 10 }]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", progress: 100, result: { sum: 15 }, attempts: 1 });

    // A stray copy of an earlier message finds the job done and does nothing.
    const stray = await deliverMessages(JOBS_QUEUE, [{ body: sent[0], attempts: 2 }], handle);
    expect(stray.result.retryMessages).toEqual([]);
    expect(seen).toHaveLength(3);
  });

  it("a slice that fails is retried from the last checkpoint, not from the start", async () => {
    const t = await createTenant();
    const { def, seen } = summingJob(3);
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: { upTo: 5 }, performedBy: null });
    const requeued = recordingQueue();
    const handle = (batch: MessageBatch<unknown>) => handleJobsBatch(batch, { ...env, JOBS: requeued.queue } as Env);

    await deliverMessages(JOBS_QUEUE, [{ body: sent[0] }], handle);
    const failing = await deliverMessages(JOBS_QUEUE, [{ body: requeued.sent[0] }], handle);
    expect(failing.result.retryMessages).toHaveLength(1);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", error: "slice failed", finishedAt: null });

    await deliverMessages(JOBS_QUEUE, [{ body: requeued.sent[0], attempts: 2 }], handle);
    await deliverMessages(JOBS_QUEUE, [{ body: requeued.sent[1] }], handle);
    expect(seen).toEqual([null, { next: 3, sum: 3 }, { next: 3, sum: 3 }, { next: 5, sum: 10 }]);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", result: { sum: 15 } });
  });

  it("runs a sliced job end to end through the real JOBS queue", async () => {
    const t = await createTenant();
    const { def } = summingJob();
    const { jobId } = await enqueueUntyped(env, { tenantId: t.id, type: def.type, input: { upTo: 5 }, performedBy: null });
    // Two numbers a slice: three slices, each a pass through the queue and its batch window.
    const job = await poll(async () => {
      const j = await getJob(env, t.id, jobId);
      return j?.status === "done" ? j : null;
    }, queueHops(3));
    expect(job.result).toEqual({ sum: 15 });
  }, 60_000);
});

describe("dead letters", () => {
  it("forwards a poison message to the DLQ, acknowledges it, and the DLQ consumer records it in D1", async () => {
    const id = messageId("poison");
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body: { hello: "not a job", tenantId: "t-poison" } }]);
    expect(result.explicitAcks).toEqual([id]);
    expect(result.retryMessages).toEqual([]);
    // The forward went through the real JOBS_DLQ producer to the real DLQ consumer.
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row).toMatchObject({ queue: JOBS_QUEUE, reason: "invalid message body", tenantId: "t-poison" });
    expect(JSON.parse(row.body)).toEqual({ hello: "not a job", tenantId: "t-poison" });
  });

  it("dead-letters a poison message sent through the real JOBS queue, end to end", async () => {
    const marker = messageId("e2e");
    await env.JOBS.send({ marker, jobId: 42 });
    // Two batch windows of 2 s (JOBS, then its DLQ) pass before the row exists: about 4 s idle,
    // past 8 s on a loaded machine. The wait is for the row, however long that takes here.
    const row = await poll(
      () =>
        getDb(env)
          .select()
          .from(deadLetters)
          .where(like(deadLetters.body, `%${marker}%`))
          .get(),
      25_000,
    );
    expect(row).toMatchObject({ queue: JOBS_QUEUE, reason: "invalid message body" });
    expect(JSON.parse(row.body)).toEqual({ marker, jobId: 42 });
  });

  it("runs a real job end to end: enqueue -> JOBS consumer -> done", async () => {
    const t = await createTenant();
    const u = await createUser(t);
    const { jobId } = await enqueue(env, {
      tenantId: t.id,
      type: "notifications.send",
      input: { userId: u.id, type: "info", title: "Round trip" },
      performedBy: null,
    });
    const job = await poll(async () => {
      const j = await getJob(env, t.id, jobId);
      return j?.status === "done" ? j : null;
    });
    expect(job.progress).toBe(100);
    const rows = await getDb(env).select().from(notifications).where(eq(notifications.tenantId, t.id));
    expect(rows.map((r) => r.title)).toEqual(["Round trip"]);
  });

  it("records DLQ deliveries once per message: our forwards and the platform's exhausted retries", async () => {
    const t = await createTenant();
    const forwardedId = messageId("fwd");
    const exhaustedId = messageId("exh");
    const forward = { queue: JOBS_QUEUE, messageId: forwardedId, body: { jobId: "j1", tenantId: t.id }, reason: "job row not found" };
    const exhausted = { jobId: "j2", tenantId: t.id, type: "notifications.send", idempotencyKey: "k" };
    const first = await deliverMessages(DLQ, [
      { id: messageId(), body: forward },
      { id: exhaustedId, body: exhausted },
    ]);
    expect(first.result.explicitAcks).toHaveLength(2);
    // A redelivered DLQ batch does not duplicate the records.
    await deliverMessages(DLQ, [
      { id: messageId(), body: forward },
      { id: exhaustedId, body: exhausted },
    ]);

    const rows = await getDb(env).select().from(deadLetters).where(eq(deadLetters.tenantId, t.id));
    expect(rows).toHaveLength(2);
    const byId = Object.fromEntries(rows.map((r) => [r.messageId, r]));
    expect(byId[forwardedId]).toMatchObject({ queue: JOBS_QUEUE, reason: "job row not found" });
    expect(JSON.parse(byId[forwardedId].body)).toEqual({ jobId: "j1", tenantId: t.id });
    // The platform moved it after max_retries: recorded against the queue it came from.
    expect(byId[exhaustedId]).toMatchObject({ queue: JOBS_QUEUE, reason: "retries exhausted" });
    expect(JSON.parse(byId[exhaustedId].body)).toEqual(exhausted);
  });

  it("closes a job the platform dead-lettered after its retries, so a stray later delivery does not run it again", async () => {
    const t = await createTenant();
    let runs = 0;
    const def = registerJob(
      defineJob({
        type: `test.always-fails.${messageId()}`,
        input: z.object({}),
        async run() {
          runs += 1;
          throw new Error("provider down");
        },
      }),
    );
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    const id = messageId("exhausted");
    const failed = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 6 }]);
    expect(failed.result.retryMessages).toHaveLength(1);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "failed", finishedAt: null });

    // The platform gives up and moves the message to the DLQ as it was.
    await deliverMessages(DLQ, [{ id, body: sent[0] }]);
    const closed = await getJob(env, t.id, jobId);
    expect(closed).toMatchObject({ status: "failed", error: "provider down" });
    expect(closed?.finishedAt).toEqual(expect.any(Number));

    const stray = await deliverMessages(JOBS_QUEUE, [{ id, body: sent[0], attempts: 1 }]);
    expect(stray.result.explicitAcks).toEqual([id]);
    expect(runs).toBe(1);
  });

  it("leaves a job that finished before its dead letter arrived as it was", async () => {
    const t = await createTenant();
    const def = registerJob(defineJob({ type: `test.ok.${messageId()}`, input: z.object({}), async run() {} }));
    const { jobId, sent } = await enqueueRecorded({ tenantId: t.id, type: def.type, input: {}, performedBy: null });
    await deliverMessages(JOBS_QUEUE, [{ body: sent[0], attempts: 1 }]);
    const done = await getJob(env, t.id, jobId);
    expect(done).toMatchObject({ status: "done" });
    await deliverMessages(DLQ, [{ id: messageId(), body: sent[0] }]);
    expect(await getJob(env, t.id, jobId)).toEqual(done);
  });

  it("dead-letters a message whose job row does not exist", async () => {
    const id = messageId("gone");
    const body = { jobId: "no-such-job", tenantId: "no-such-tenant", type: "notifications.send", idempotencyKey: "k" };
    const { result } = await deliverMessages(JOBS_QUEUE, [{ id, body }]);
    expect(result.explicitAcks).toEqual([id]);
    const row = await poll(() => getDb(env).select().from(deadLetters).where(eq(deadLetters.messageId, id)).get());
    expect(row.reason).toBe("job row not found");
  });
});

describe("purgeFinishedJobs", () => {
  it("deletes done jobs finished before the cut-off and keeps the rest", async () => {
    const t = await createTenant();
    const db = getDb(env);
    const now = Date.now();
    const base = { tenantId: t.id, type: "notifications.send", inputs: {}, createdAt: now, updatedAt: now };
    await db.insert(jobs).values([
      { ...base, id: `${t.id}-old`, idempotencyKey: "old", status: "done", finishedAt: now - 40 * 86_400_000 },
      { ...base, id: `${t.id}-new`, idempotencyKey: "new", status: "done", finishedAt: now },
      { ...base, id: `${t.id}-failed`, idempotencyKey: "failed", status: "failed" },
    ]);
    await purgeFinishedJobs(env, now - 30 * 86_400_000);
    const left = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.tenantId, t.id));
    expect(left.map((r) => r.id).sort()).toEqual([`${t.id}-failed`, `${t.id}-new`]);
  });
});
