import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { getDb } from "~/db/client.server";
import { devMailbox, emailOutbox } from "~/db/schema";
import { runCisDeadlineAlerts } from "~/features/cis/dashboard/deadline-alerts.server";
import { handleEmailBatch } from "~/features/platform/email/consumer.server";
import { queueEmail } from "~/features/platform/email/send.server";
import { runHousekeeping } from "~/features/platform/housekeeping.server";
import { JOB_DEFINITIONS } from "~/features/platform/jobs/definitions.server";
import { enqueue, getJob, type JobMessage } from "~/features/platform/jobs/enqueue.server";
import { defineJob, type JobDefinition } from "~/features/platform/jobs/registry.server";
import { setTenantSuspended } from "~/features/superadmin/console.server";
import { createTenant, createUser, type TestTenant } from "../factories";
import { seedCisSettings, seedSub } from "../factories/cis";
import { seedInvoice } from "../factories/returns";
import { count } from "./auth-helpers";
import { deliverMessages, messageId, recordingQueue } from "./queue-helpers";

const JOBS_QUEUE = "cis-workspace-jobs";
const EMAIL_QUEUE = "cis-workspace-email";
const SUPERADMIN = { id: "superadmin-test", email: "superadmin@example.test", name: "Super Admin", ip: null };

/** An env whose JOBS and EMAIL producers record instead of sending, so the test delivers each message itself. */
function recordingEnv() {
  const jobsQ = recordingQueue();
  const emailQ = recordingQueue();
  return { env: { ...env, JOBS: jobsQ.queue, EMAIL: emailQ.queue } as Env, jobs: jobsQ.sent as JobMessage[], emails: emailQ.sent as { outboxId: string }[] };
}

const registered: string[] = [];
afterEach(() => {
  for (const t of registered.splice(0)) delete JOB_DEFINITIONS[t];
});

/** A test job type that counts its runs per job id. */
function countingJob() {
  const runs = new Map<string, number>();
  const def = defineJob({
    type: `test.suspension.${messageId()}`,
    input: z.object({ label: z.string() }),
    async run(input, ctx) {
      runs.set(ctx.jobId, (runs.get(ctx.jobId) ?? 0) + 1);
      return { label: input.label };
    },
  });
  JOB_DEFINITIONS[def.type] = def as unknown as JobDefinition;
  registered.push(def.type);
  return { def, runs };
}

type UntypedEnqueue = (e: Env, opts: { tenantId: string; type: string; input: unknown; performedBy: string | null }) => ReturnType<typeof enqueue>;
const enqueueUntyped = enqueue as unknown as UntypedEnqueue;

const deliverJobs = (messages: JobMessage[], e: Env) =>
  deliverMessages(
    JOBS_QUEUE,
    messages.map((body) => ({ body })),
    async (batch) => (await import("~/features/platform/jobs/consumer.server")).handleJobsBatch(batch, e),
  );
const deliverEmails = (messages: { outboxId: string }[], e: Env) =>
  deliverMessages(
    EMAIL_QUEUE,
    messages.map((body) => ({ body })),
    (batch) => handleEmailBatch(batch, e),
  );

async function suspend(t: TestTenant, e: Env = env) {
  expect(await setTenantSuspended(e, t.id, true, SUPERADMIN)).toMatchObject({ ok: true });
}
async function reinstate(t: TestTenant, e: Env) {
  return setTenantSuspended(e, t.id, false, SUPERADMIN);
}

describe("a suspended tenant's background work", () => {
  it("the daily deadline cron creates no notifications and no e-mails for a suspended tenant; other tenants still get theirs", async () => {
    const NOW = new Date("2026-05-17T08:00:00Z");
    const make = async () => {
      const t = await createTenant({ modules: ["cis"], bundles: { admin: ["cis.manage"] } });
      await seedCisSettings(t, { warningDays: 3 });
      await createUser(t, { role: "admin" });
      const sub = await seedSub(t);
      await seedInvoice(t, { subcontractorId: sub.id, status: "approved", taxMonth: "2026-04", statementRequired: true });
      return t;
    };
    const suspended = await make();
    const active = await make();
    await suspend(suspended);
    await runCisDeadlineAlerts(env, NOW);
    expect(await count("notifications", "tenant_id = ?", suspended.id)).toBe(0);
    expect(await count("email_outbox", "tenant_id = ?", suspended.id)).toBe(0);
    expect(await count("notifications", "tenant_id = ?", active.id)).toBeGreaterThan(0);
    expect(await count("email_outbox", "tenant_id = ? AND template = 'cis.deadline-digest'", active.id)).toBeGreaterThan(0);
  });

  it("parks a job for a suspended tenant without running or retrying it; reinstating runs it exactly once", async () => {
    const { def, runs } = countingJob();
    const t = await createTenant();
    const other = await createTenant();
    const q = recordingEnv();
    const { jobId } = await enqueueUntyped(q.env, { tenantId: t.id, type: def.type, input: { label: "parked" }, performedBy: null });
    const { jobId: otherJobId } = await enqueueUntyped(q.env, { tenantId: other.id, type: def.type, input: { label: "runs" }, performedBy: null });
    const [message, otherMessage] = q.jobs.splice(0);
    await suspend(t);

    const first = await deliverJobs([message, otherMessage], q.env);
    expect(first.result.retryMessages).toEqual([]);
    expect(first.result.explicitAcks).toHaveLength(2);
    expect(runs.get(jobId)).toBeUndefined();
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "parked", finishedAt: null });
    // The other tenant is unaffected.
    expect(runs.get(otherJobId)).toBe(1);
    expect((await getJob(env, other.id, otherJobId))?.status).toBe("done");
    // Redelivered while still suspended: parked again, still not run, not retried, not dead-lettered.
    const again = await deliverJobs([message], q.env);
    expect(again.result.retryMessages).toEqual([]);
    expect(runs.get(jobId)).toBeUndefined();
    expect(await count("dead_letters", "tenant_id = ?", t.id)).toBe(0);
    // Parked jobs outlive the purge of finished jobs.
    await runHousekeeping(q.env, Date.now() + 60 * 86_400_000);
    expect((await getJob(env, t.id, jobId))?.status).toBe("parked");

    expect(await reinstate(t, q.env)).toMatchObject({ ok: true });
    expect(q.jobs).toEqual([{ jobId, tenantId: t.id, type: def.type, idempotencyKey: message.idempotencyKey }]);
    // A second reinstatement changes nothing and queues nothing.
    expect(await reinstate(t, q.env)).toMatchObject({ ok: false, code: "not_suspended" });
    expect(q.jobs).toHaveLength(1);

    await deliverJobs([q.jobs[0]], q.env);
    expect(runs.get(jobId)).toBe(1);
    expect(await getJob(env, t.id, jobId)).toMatchObject({ status: "done", result: { label: "parked" } });
    // The resumed message redelivered, and the original one arriving late: nothing runs twice.
    await deliverJobs([q.jobs[0], message], q.env);
    expect(runs.get(jobId)).toBe(1);
  });

  it("parks an e-mail for a suspended tenant and sends it once after reinstatement", async () => {
    const t = await createTenant();
    const other = await createTenant();
    const q = recordingEnv();
    const notice = { subject: "Your statement is ready", message: "Hello" };
    const to = `${messageId("to")}@example.test`;
    const { outboxId } = await queueEmail(q.env, { tenantId: t.id, to, template: "platform.notice", data: notice });
    const { outboxId: otherId } = await queueEmail(q.env, { tenantId: other.id, to, template: "platform.notice", data: notice });
    const [message, otherMessage] = q.emails.splice(0);
    await suspend(t);

    const first = await deliverEmails([message, otherMessage], q.env);
    expect(first.result.retryMessages).toEqual([]);
    expect(first.result.explicitAcks).toHaveLength(2);
    const parked = await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.id, outboxId)).get();
    expect(parked).toMatchObject({ status: "parked", sentAt: null, data: notice });
    expect(await getDb(env).select().from(devMailbox).where(eq(devMailbox.outboxId, outboxId))).toHaveLength(0);
    expect(await getDb(env).select().from(devMailbox).where(eq(devMailbox.outboxId, otherId))).toHaveLength(1);
    await deliverEmails([message], q.env);
    expect((await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.id, outboxId)).get())?.status).toBe("parked");
    // The outbox purge keeps a parked e-mail: it is waiting, not finished.
    await runHousekeeping(q.env, Date.now() + 31 * 86_400_000);
    expect(await count("email_outbox", "id = ? AND status = 'parked'", outboxId)).toBe(1);

    expect(await reinstate(t, q.env)).toMatchObject({ ok: true });
    expect(q.emails).toEqual([{ outboxId, tenantId: t.id }]);
    await deliverEmails([q.emails[0], message], q.env);
    expect((await getDb(env).select().from(emailOutbox).where(eq(emailOutbox.id, outboxId)).get())?.status).toBe("sent");
    expect(await getDb(env).select().from(devMailbox).where(eq(devMailbox.outboxId, outboxId))).toHaveLength(1);
  });

  it("housekeeping queues again what a reinstatement could not (its queue send failed), and nothing for a tenant still suspended", async () => {
    const { def, runs } = countingJob();
    const t = await createTenant();
    const still = await createTenant();
    const q = recordingEnv();
    const { jobId } = await enqueueUntyped(q.env, { tenantId: t.id, type: def.type, input: { label: "a" }, performedBy: null });
    const { jobId: stillJob } = await enqueueUntyped(q.env, { tenantId: still.id, type: def.type, input: { label: "b" }, performedBy: null });
    await suspend(t);
    await suspend(still);
    await deliverJobs(q.jobs.splice(0), q.env);
    expect((await getJob(env, t.id, jobId))?.status).toBe("parked");
    // The queue refuses while the tenant is reinstated: reinstatement stands, the job stays parked.
    const refusing = {
      ...q.env,
      JOBS: {
        send: async () => {
          throw new Error("queue down");
        },
        sendBatch: async () => {
          throw new Error("queue down");
        },
      } as unknown as Queue,
    };
    expect(await reinstate(t, refusing)).toMatchObject({ ok: true });
    expect((await getJob(env, t.id, jobId))?.status).toBe("parked");
    await runHousekeeping(q.env);
    expect(q.jobs.map((m) => m.jobId)).toContain(jobId);
    expect(q.jobs.map((m) => m.jobId)).not.toContain(stillJob);
    await deliverJobs(
      q.jobs.filter((m) => m.jobId === jobId),
      q.env,
    );
    expect(runs.get(jobId)).toBe(1);
    expect(runs.get(stillJob)).toBeUndefined();
  });
});
