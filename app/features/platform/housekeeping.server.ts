import { purgeDevMailbox } from "./email/dev-mailbox.server";
import { purgeEmailOutbox, scrubExpiredEmailSecrets } from "./email/outbox.server";
import { purgeFinishedJobs } from "./jobs/consumer.server";
import { resumeParkedWork } from "./parked-work.server";
import { purgeSubmissionKeys } from "./submission-keys.server";

const DAY = 86_400_000;

/**
 * Hourly (sign-in's own tables are purged by auth's housekeeping): dev mail older than 7 days,
 * secrets in e-mails past their lifetime, outbox rows older than 30 days (whatever their
 * status, parked ones excepted), jobs finished more than 30 days ago (failed ones stay for an
 * operator to look at), and one-time submission keys older than their day. Also queues again the
 * parked work of reinstated tenants, should the reinstatement's own sends have been refused.
 * `now` is the cron's scheduled time, so a late run purges what the on-time run would have.
 */
export async function runHousekeeping(env: Env, now = Date.now()) {
  const devMail = await purgeDevMailbox(env, now - 7 * DAY);
  const emailSecrets = await scrubExpiredEmailSecrets(env, now);
  const emailOutbox = await purgeEmailOutbox(env, now - 30 * DAY);
  const finishedJobs = await purgeFinishedJobs(env, now - 30 * DAY);
  const submissionKeys = await purgeSubmissionKeys(env, now);
  const resumed = await resumeParkedWork(env);
  return { devMail, emailSecrets, emailOutbox, finishedJobs, submissionKeys, resumed };
}
