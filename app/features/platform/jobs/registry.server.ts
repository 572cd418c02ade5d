import type { z } from "zod";

export type JobContext = {
  env: Env;
  jobId: string;
  tenantId: string;
  performedBy: string | null;
  /**
   * Records progress 0-100 on the job row (and renews the lease). Throws when another delivery
   * has taken the job over since this run claimed it: the run should stop, its work is moot.
   */
  progress(pct: number): Promise<void>;
  /**
   * What the previous slice of this job handed on with continueJob(), or null on its first slice.
   * Also set when a slice failed and is retried after an earlier slice continued: work is
   * resumed from the last checkpoint, never from the start.
   */
  checkpoint: Record<string, unknown> | null;
};

/**
 * Returned by a job that has more to do than one invocation should take (CPU time, D1 queries
 * per invocation): the consumer stores the checkpoint on the job row, puts the job back to
 * pending and queues it again, and the next delivery runs it with ctx.checkpoint set.
 */
export class JobContinuation {
  constructor(readonly checkpoint: Record<string, unknown>) {}
}

export function continueJob(checkpoint: Record<string, unknown>): JobContinuation {
  return new JobContinuation(checkpoint);
}

export type JobDefinition<S extends z.ZodType = z.ZodType, T extends string = string> = {
  type: T;
  input: S;
  /**
   * Must be safe to run again for the same jobId: a crash after the work and before the
   * job is marked done means a redelivery runs it again (write with ids derived from jobId).
   */
  run(input: z.infer<S>, ctx: JobContext): Promise<Record<string, unknown> | JobContinuation | void>;
};

/** Keeps the literal type name and the input schema's type, so enqueue() can check callers. */
export function defineJob<const T extends string, S extends z.ZodType>(def: JobDefinition<S, T>): JobDefinition<S, T> {
  return def;
}

/**
 * Thrown by a job to say retrying cannot help (the thing it works on is gone, say): the job is
 * failed for good and its message dead-lettered at once. Any other error is retried.
 */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}
