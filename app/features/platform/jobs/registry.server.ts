import type { z } from "zod";

export type JobContext = {
  env: Env;
  jobId: string;
  tenantId: string;
  performedBy: string | null;
  /** Records progress 0-100 on the job row. */
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

/** Thrown by a job to say retrying cannot help (the thing it works on is gone, say). */
export class PermanentJobError extends Error {
  override name = "PermanentJobError";
}
