import { handleEmailBatch, handleEmailDeadLetters } from "../../app/features/platform/index.server";
import { handleJobDeadLetters, handleJobsBatch } from "../../app/features/platform/index.server";

/** Queue name -> consumer. Names match wrangler.toml. */
export async function handleQueueBatch(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  switch (batch.queue) {
    case "cis-workspace-jobs":
      return handleJobsBatch(batch, env);
    case "cis-workspace-email":
      return handleEmailBatch(batch, env);
    case "cis-workspace-jobs-dlq":
      return handleJobDeadLetters(batch, env);
    case "cis-workspace-email-dlq":
      return handleEmailDeadLetters(batch, env);
    default:
      console.error(`No consumer for queue ${batch.queue}`);
      batch.retryAll();
  }
}
