import { loadShardRoutes } from "../../app/db/client.server";
import { SERVER_FEATURES } from "../../app/jobs.server";
import { cronRegistry } from "../../app/features/platform/index.server";

/** Cron expression (as in wrangler.toml) -> the feature tasks it runs, from each feature's registration. */
export const CRON_REGISTRY = cronRegistry(SERVER_FEATURES);

export async function handleScheduled(controller: ScheduledController, env: Env): Promise<void> {
  const jobs = CRON_REGISTRY[controller.cron];
  if (!jobs) {
    console.warn(`No jobs registered for cron ${controller.cron}`);
    return;
  }
  // Sweeps that go on to a tenant's own database need the routing table of the shards.
  await loadShardRoutes(env);
  // Run every job even when one fails, then report the failures.
  const results = await Promise.allSettled(jobs.map((j) => j.run(env, controller.scheduledTime)));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [`${jobs[i].name}: ${String(r.reason)}`] : []));
  if (failed.length) throw new Error(`Cron ${controller.cron} failed: ${failed.join("; ")}`);
}
