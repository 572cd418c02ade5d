import { runAuthHousekeeping } from "../../app/features/auth/index.server";
import { runCisDeadlineAlerts } from "../../app/features/cis/index.server";
import { runHmrcRecordsHousekeeping } from "../../app/features/cis/index.server";
import { runCisImportCleanup } from "../../app/features/cis/index.server";
import { expireMultipartUploads } from "../../app/features/files/index.server";
import { runHousekeeping } from "../../app/features/platform/index.server";

type CronJob = { name: string; run(env: Env, scheduledTime: number): Promise<unknown> };

/** Cron expression (as in wrangler.toml) -> the feature jobs it runs. */
export const CRON_REGISTRY: Record<string, CronJob[]> = {
  // Daily: CIS deadline alerts (statements, filing, payment) still to be met: in-app notifications and a
  // digest e-mail. Suspended tenants are skipped.
  "0 6 * * *": [{ name: "cis-deadline-alerts", run: (env, t) => runCisDeadlineAlerts(env, t) }],
  // Hourly housekeeping.
  "15 * * * *": [
    { name: "housekeeping", run: (env, t) => runHousekeeping(env, t) },
    { name: "auth-housekeeping", run: (env, t) => runAuthHousekeeping(env, t) },
    { name: "cis-stale-imports", run: (env, t) => runCisImportCleanup(env, t) },
    { name: "files-stale-multipart-uploads", run: (env, t) => expireMultipartUploads(env, t) },
    // HMRC messages: legacy plaintext XML encrypted, submissions past six tax years deleted.
    { name: "cis-hmrc-records", run: (env, t) => runHmrcRecordsHousekeeping(env, t) },
  ],
};

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const jobs = CRON_REGISTRY[controller.cron];
  if (!jobs) {
    console.warn(`No jobs registered for cron ${controller.cron}`);
    return;
  }
  // Run every job even when one fails, then report the failures.
  const results = await Promise.allSettled(jobs.map((j) => j.run(env, controller.scheduledTime)));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [`${jobs[i].name}: ${String(r.reason)}`] : []));
  if (failed.length) throw new Error(`Cron ${controller.cron} failed: ${failed.join("; ")}`);
}
