import { z } from "zod";
import { dbFor } from "~/db/client.server";
import { notifications } from "~/db/schema";
import { defineJob, type JobDefinition } from "./registry.server";

/** In-app notification to one user; the id comes from the job so a rerun writes nothing new. */
export const notifyUserJob = defineJob({
  type: "notifications.send",
  input: z.object({
    userId: z.string().min(1),
    type: z.string().min(1).max(50),
    title: z.string().min(1).max(200),
    message: z.string().max(1000).default(""),
    link: z.string().max(500).optional(),
  }),
  async run(input, ctx) {
    await dbFor(ctx.env, ctx.tenantId)
      .insert(notifications)
      .values({
        id: `job:${ctx.jobId}`,
        tenantId: ctx.tenantId,
        targetUserId: input.userId,
        type: input.type,
        title: input.title,
        message: input.message,
        link: input.link ?? null,
        fromUserId: ctx.performedBy,
        createdAt: Date.now(),
      })
      .onConflictDoNothing();
    await ctx.progress(100);
    return { notificationId: `job:${ctx.jobId}` };
  },
});

/** Every job type the JOBS consumer knows, by type name. Features add theirs here. */
const KNOWN_JOBS = {
  [notifyUserJob.type]: notifyUserJob,
};

/**
 * Job types that features add from the server composition root (app/jobs.server.ts), by type name
 * with the input a caller passes; platform code never imports a feature.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface RegisteredJobs {}

export type JobType = keyof typeof KNOWN_JOBS | keyof RegisteredJobs;
/** What a caller passes to enqueue() for a job type (schema defaults may be left out). */
export type JobInput<T extends JobType> = T extends keyof typeof KNOWN_JOBS
  ? z.input<(typeof KNOWN_JOBS)[T]["input"]>
  : T extends keyof RegisteredJobs
    ? RegisteredJobs[T]
    : never;

/** The consumer's lookup table: untyped, since it is read with whatever type a message names. */
export const JOB_DEFINITIONS: Record<string, JobDefinition> = { ...(KNOWN_JOBS as unknown as Record<string, JobDefinition>) };

/** Adds features' job types to the table; called once from the composition root. */
export function registerJobs(...defs: JobDefinition[]): void {
  for (const def of defs) JOB_DEFINITIONS[def.type] = def;
}
