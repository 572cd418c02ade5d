import { env } from "cloudflare:workers";
import { recordingQueue } from "../integration/queue-helpers";

/**
 * The Worker's env with a JOBS producer that only records, and what it recorded: no job a
 * request or function queues runs behind the test (the test delivers the ones it wants).
 */
export function recordingJobs(): { env: Env; sent: unknown[] } {
  const { sent, queue } = recordingQueue();
  return { env: { ...env, JOBS: queue } as Env, sent };
}

/** The Worker's env with a JOBS producer that only records, for tests that never read it. */
export function quietEnv(): Env {
  return recordingJobs().env;
}
