/**
 * Full usage recalculation: the running totals in storage_usage move by increments in the same
 * batches as the file rows, so they can only drift when something outside those batches touches
 * storage (an R2 delete that failed after its row went, an object written by hand). This walks
 * what R2 actually holds under the tenant's files prefix and writes the totals it finds.
 *
 * It runs as a JOBS job, a few list pages per delivery, so a tenant with any number of files
 * never takes one invocation past its subrequest or CPU limits; the running totals travel in the
 * job's checkpoint. The final write sets absolute figures, so a redelivery writes the same thing.
 *
 * What it cannot see: an upload that is recorded while the walk is running may be counted or not
 * depending on whether its key sorts before or after the walk's cursor; the next recalculation,
 * or the next increment, puts that right. Reservations for uploads in flight are kept apart and
 * are not touched.
 */
import { claimSubmission, type SubmissionClaim } from "~/features/platform/index.server";
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { auditEvents, jobs, storageUsage } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { enqueue } from "~/features/platform/index.server";
import { continueJob, defineJob } from "~/features/platform/index.server";
import { USAGE_CATEGORIES, USAGE_RECALC_AUDIT, USAGE_RECALC_JOB, type UsageCategory } from "./file-constants";
import { usageCategory } from "./file-rules";

/** R2 list pages (up to 1,000 objects each) per queue delivery. */
export const USAGE_RECALC_PAGES_PER_SLICE = 10;
const LIST_LIMIT = 1000;
const KEY_PREFIX = `${USAGE_RECALC_JOB}:after:`;

const categoriesSchema = z.partialRecord(z.enum(USAGE_CATEGORIES), z.number().int().min(0));
const checkpointSchema = z.object({
  cursor: z.string().nullable(),
  usedBytes: z.number().int().min(0),
  objects: z.number().int().min(0),
  fileCount: z.number().int().min(0),
  lastFileId: z.string().nullable(),
  categories: categoriesSchema,
});
type Checkpoint = z.infer<typeof checkpointSchema>;

export const usageResultSchema = z.object({
  usedBytes: z.number().int(),
  fileCount: z.number().int(),
  objects: z.number().int(),
  previousUsedBytes: z.number().int(),
  previousFileCount: z.number().int(),
});
export type UsageRecalcResult = z.infer<typeof usageResultSchema>;

export function filesPrefix(tenantId: string): string {
  return `tenants/${tenantId}/files/`;
}

/** Adds one stored object to the totals. Keys are tenants/{t}/files/{fileId}/v{n}/{variant}/{name}, listed in key order, so a file's objects arrive together. */
export function tally(state: Checkpoint, prefix: string, object: { key: string; size: number; httpMetadata?: { contentType?: string } }): void {
  if (!object.key.startsWith(prefix)) return;
  const rest = object.key.slice(prefix.length);
  const fileId = rest.split("/", 1)[0];
  if (!fileId) return;
  const name = rest.slice(rest.lastIndexOf("/") + 1);
  const category: UsageCategory = usageCategory(object.httpMetadata?.contentType ?? "application/octet-stream", name);
  state.usedBytes += object.size;
  state.objects += 1;
  state.categories[category] = (state.categories[category] ?? 0) + object.size;
  if (fileId !== state.lastFileId) {
    state.fileCount += 1;
    state.lastFileId = fileId;
  }
}

export const usageRecalculateJob = defineJob({
  type: USAGE_RECALC_JOB,
  input: z.object({ actorEmail: z.string().min(1).max(320) }),
  async run(input, ctx) {
    const previous = checkpointSchema.safeParse(ctx.checkpoint);
    const state: Checkpoint = previous.success ? previous.data : { cursor: null, usedBytes: 0, objects: 0, fileCount: 0, lastFileId: null, categories: {} };
    const prefix = filesPrefix(ctx.tenantId);
    for (let page = 0; page < USAGE_RECALC_PAGES_PER_SLICE; page++) {
      const listed = await ctx.env.FILES.list({ prefix, cursor: state.cursor ?? undefined, limit: LIST_LIMIT, include: ["httpMetadata"] });
      for (const object of listed.objects) tally(state, prefix, object);
      state.cursor = listed.truncated ? listed.cursor : null;
      if (!listed.truncated) break;
    }
    if (state.cursor) {
      await ctx.progress(50);
      return continueJob(state);
    }
    return applyRecalculatedUsage(ctx.env, ctx.tenantId, ctx.jobId, state, { id: ctx.performedBy, email: input.actorEmail });
  },
});

/** Writes the walked totals and their audit entry together; a redelivery after the write changes nothing and audits nothing twice. */
async function applyRecalculatedUsage(
  env: Env,
  tenantId: string,
  jobId: string,
  state: Checkpoint,
  actor: { id: string | null; email: string },
): Promise<UsageRecalcResult> {
  const db = dbFor(env, tenantId);
  const now = Date.now();
  const [[before], [audited]] = await db.batch([
    db.select({ usedBytes: storageUsage.usedBytes, fileCount: storageUsage.fileCount }).from(storageUsage).where(eq(storageUsage.tenantId, tenantId)),
    db
      .select({ payload: auditEvents.payload })
      .from(auditEvents)
      .where(and(eq(auditEvents.tenantId, tenantId), eq(auditEvents.action, USAGE_RECALC_AUDIT), eq(auditEvents.targetId, jobId)))
      .limit(1),
  ]);
  if (audited) {
    const done = usageResultSchema.safeParse(audited.payload);
    if (done.success) return done.data;
  }
  const result: UsageRecalcResult = {
    usedBytes: state.usedBytes,
    fileCount: state.fileCount,
    objects: state.objects,
    previousUsedBytes: before?.usedBytes ?? 0,
    previousFileCount: before?.fileCount ?? 0,
  };
  const totals = { usedBytes: state.usedBytes, fileCount: state.fileCount, categoryBytes: state.categories, lastCalculated: now, updatedAt: now };
  await db.batch([
    db
      .insert(storageUsage)
      .values({ tenantId, ...totals, createdAt: now })
      .onConflictDoUpdate({ target: storageUsage.tenantId, set: totals }),
    auditInsert(
      db,
      { tenantId, action: USAGE_RECALC_AUDIT, actorId: actor.id, actorEmail: actor.email, targetType: "job", targetId: jobId, payload: result },
      now,
    ),
  ]);
  return result;
}

/** The tenant's most recent recalculation job, found by key range so the (tenant, key) index serves it. */
export function latestUsageJobQuery(db: Db, tenantId: string) {
  return db
    .select({ id: jobs.id, status: jobs.status, result: jobs.result, finishedAt: jobs.finishedAt })
    .from(jobs)
    .where(
      and(
        eq(jobs.tenantId, tenantId),
        eq(jobs.type, USAGE_RECALC_JOB),
        gte(jobs.idempotencyKey, KEY_PREFIX),
        lt(jobs.idempotencyKey, `${KEY_PREFIX.slice(0, -1)};`),
      ),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(1);
}

export type UsageJobView = { state: "running" } | { state: "done"; result: UsageRecalcResult; finishedAt: number | null } | { state: "failed" } | null;

export function usageJobView(row: { status: string; result: unknown; finishedAt: number | null } | undefined): UsageJobView {
  if (!row) return null;
  // Parked: the tenant was suspended while it waited; it runs once the tenant is reinstated.
  if (row.status === "pending" || row.status === "running" || row.status === "parked") return { state: "running" };
  if (row.status === "failed") return { state: "failed" };
  const result = usageResultSchema.safeParse(row.result);
  return result.success ? { state: "done", result: result.data, finishedAt: row.finishedAt } : { state: "failed" };
}

/** Starts a recalculation, or hands back the one already under way: a double click or two managers at once make one job. */
export async function startUsageRecalculation(
  env: Env,
  tenantId: string,
  actor: { id: string; email: string },
  opts: { claim?: SubmissionClaim } = {},
): Promise<{ jobId: string; created: boolean }> {
  const db = dbFor(env, tenantId);
  const [latest] = await latestUsageJobQuery(db, tenantId);
  if (latest && usageJobView(latest)?.state === "running") return { jobId: latest.id, created: false };
  return enqueue(env, {
    tenantId,
    type: USAGE_RECALC_JOB,
    input: { actorEmail: actor.email },
    performedBy: actor.id,
    idempotencyKey: `${KEY_PREFIX}${latest?.id ?? "none"}`,
    alongside: (d) => (opts.claim ? [claimSubmission(d, opts.claim)] : []),
  });
}
