import { createExecutionContext, createMessageBatch, getQueueResult, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { JobMessage } from "~/features/platform/jobs/enqueue.server";
import worker from "../../workers/app";
import type { Browser } from "./http";

/** A stand-in producer that records what would have been queued. */
export function recordingQueue() {
  const sent: unknown[] = [];
  const queue = {
    async send(body: unknown) {
      sent.push(structuredClone(body));
    },
    async sendBatch(msgs: Iterable<{ body: unknown }>) {
      for (const m of msgs) sent.push(structuredClone(m.body));
    },
  };
  return { sent, queue: queue as unknown as Queue };
}

/**
 * Posts a form as `browser` would, answered by the Worker with JOBS recording instead of
 * queueing: returns the job messages the request sent, for the test to deliver itself
 * (deliverMessages). A job sent through the real JOBS queue is also delivered by the test
 * runtime's own consumer about two seconds later, whenever that is: it races the test's
 * delivery of the same job and outlives the test, running into the next one. Anything the
 * request leaves to ctx.waitUntil is awaited before this returns.
 */
export async function postRecordingJobs(
  browser: Browser,
  url: string,
  form: Record<string, string | string[]>,
  opts: { headers?: Record<string, string> } = {},
): Promise<{ res: Response; jobs: JobMessage[] }> {
  const recorded = recordingQueue();
  const res = await browser.post(url, form, {
    ...opts,
    fetch: async (request) => {
      const ctx = createExecutionContext();
      const answer = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, { ...env, JOBS: recorded.queue }, ctx);
      await waitOnExecutionContext(ctx);
      return answer;
    },
  });
  return { res, jobs: recorded.sent as JobMessage[] };
}

let seq = 0;
/** A message id unique within the test run. */
export function messageId(prefix = "m") {
  seq += 1;
  return `${prefix}-${Date.now().toString(36)}-${seq}-${Math.random().toString(36).slice(2, 8)}`;
}

export type TestMessage = { id?: string; body: unknown; attempts?: number };

/**
 * Delivers messages as the runtime would, to the worker's queue() handler unless `handle` is
 * given, and returns the ack/retry outcome. getQueueResult() does not report retry delays, so
 * retry() is observed too.
 */
export async function deliverMessages(queue: string, messages: TestMessage[], handle?: (batch: MessageBatch<unknown>, ctx: ExecutionContext) => Promise<void>) {
  const batch = createMessageBatch(
    queue,
    messages.map((m) => ({ id: m.id ?? messageId(), timestamp: new Date(), attempts: m.attempts ?? 1, body: m.body })),
  );
  const delays: Record<string, number | undefined> = {};
  for (const msg of batch.messages) {
    const retry = msg.retry.bind(msg);
    msg.retry = (opts?: QueueRetryOptions) => {
      delays[msg.id] = opts?.delaySeconds;
      retry(opts);
    };
  }
  const ctx = createExecutionContext();
  await (handle ? handle(batch, ctx) : worker.queue(batch, env, ctx));
  const result = await getQueueResult(batch, ctx);
  return { batch, result: { ...result, retryMessages: result.retryMessages.map((r) => ({ ...r, delaySeconds: delays[r.msgId] })) } };
}

/**
 * How long to wait for work that passes `hops` times through a real queue of this test runtime
 * (JOBS and the DLQs keep wrangler.toml's max_batch_timeout of 2 s). Each pass first waits out
 * that window, however idle the machine, and then runs: a three-slice job spends 6 s just in
 * windows, so the default 8 s below left it 2 s for three slices of work, which a loaded CI
 * machine did not always have. Allow each pass its window and 6 s of work.
 */
const QUEUE_BATCH_WINDOW_MS = 2_000;
export function queueHops(hops: number) {
  return hops * (QUEUE_BATCH_WINDOW_MS + 6_000);
}

/** Reads until the value is there, or fails after `timeoutMs` (one pass through a real queue). */
export async function poll<T>(read: () => Promise<T | undefined | null>, timeoutMs = queueHops(1)): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((r) => setTimeout(r, 100));
  }
}
