import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// 'parked': its tenant is suspended; kept as it stands (input, checkpoint, attempts) and queued
// again when the tenant is reinstated.
export const JOB_STATUSES = ["pending", "running", "done", "failed", "parked"] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    type: text("type").notNull(),
    inputs: text("inputs", { mode: "json" })
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'`),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("pending"),
    progress: integer("progress").notNull().default(0),
    result: text("result", { mode: "json" }).$type<Record<string, unknown> | null>(),
    error: text("error"),
    attempts: integer("attempts").notNull().default(0),
    // One key per logical piece of work: enqueueing it twice yields one job.
    idempotencyKey: text("idempotency_key").notNull(),
    performedBy: text("performed_by"),
    createdAt: integer("created_at").notNull(),
    startedAt: integer("started_at"),
    // Fencing token: a fresh random id written by each claim. Progress and the final write
    // only land while the row still carries the writer's token, so a worker whose lease
    // lapsed and was taken over cannot overwrite the newer run.
    claimId: text("claim_id"),
    // Set when the job ends for good: done, or failed in a way no retry can fix.
    finishedAt: integer("finished_at"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("jobs_tenant_idempotency").on(t.tenantId, t.idempotencyKey),
    index("jobs_tenant_status").on(t.tenantId, t.status, t.createdAt),
    // Housekeeping's look for parked jobs of reinstated tenants.
    index("jobs_parked")
      .on(t.tenantId)
      .where(sql`${t.status} = 'parked'`),
  ],
);

export const deadLetters = sqliteTable(
  "dead_letters",
  {
    id: text("id").primaryKey(),
    queue: text("queue").notNull(),
    messageId: text("message_id").notNull(),
    tenantId: text("tenant_id"),
    body: text("body").notNull(),
    reason: text("reason").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("dead_letters_queue_message").on(t.queue, t.messageId)],
);
