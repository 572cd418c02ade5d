import { runHousekeeping } from "./housekeeping.server";
import { CRONS, type ServerFeature } from "./jobs/features.server";

/**
 * The platform's server registration. Its one job type (notifications.send) is built into the
 * JOBS consumer (jobs/definitions.server.ts); here, hourly housekeeping of spent sessions,
 * tokens, throttles, mail and jobs.
 */
export const platformServer: ServerFeature = {
  name: "platform",
  cron: [{ cron: CRONS.hourly, name: "housekeeping", run: (env, t) => runHousekeeping(env, t) }],
};
