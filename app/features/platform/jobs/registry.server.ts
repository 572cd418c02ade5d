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
};

export type JobDefinition<S extends z.ZodType = z.ZodType, T extends string = string> = {
  type: T;
  input: S;
  /**
   * Must be safe to run again for the same jobId: a crash after the work and before the
   * job is marked done means a redelivery runs it again (write with ids derived from jobId).
   */
  run(input: z.infer<S>, ctx: JobContext): Promise<Record<string, unknown> | void>;
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
