import { resumeParkedEmails } from "./email/consumer.server";
import { resumeParkedJobs } from "./jobs/consumer.server";

/**
 * Queues again the jobs and e-mails parked while a tenant was suspended: called when the console
 * reinstates it, and by the hourly housekeeping for every reinstated tenant (in case the queue
 * refused the reinstatement's sends). Safe to repeat: parked rows are claimed once.
 */
export async function resumeParkedWork(env: Env, tenantId?: string): Promise<{ jobs: number; emails: number }> {
  const jobs = await resumeParkedJobs(env, tenantId);
  const emails = await resumeParkedEmails(env, tenantId);
  return { jobs, emails };
}
