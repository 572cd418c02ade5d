import { sql } from "drizzle-orm";
import { runHousekeeping } from "./housekeeping.server";
import { MODULE_CATALOGUE } from "./module-catalogue";
import { platformEraser } from "./erasure/erasure.server";
import { CRONS, type ServerFeature } from "./jobs/features.server";

/**
 * The platform's server registration. Its one job type (notifications.send) is built into the
 * JOBS consumer (jobs/definitions.server.ts); here, hourly housekeeping of spent sessions,
 * tokens, throttles, mail and jobs.
 */
export const platformServer: ServerFeature = {
  name: "platform",
  cron: [{ cron: CRONS.hourly, name: "housekeeping", run: (env, t) => runHousekeeping(env, t) }],
  erasure: platformEraser,
  auditNamers: {
    // A module's entry names it by its id: "the CIS module".
    targets: [
      {
        targetType: "module",
        name: (target) => sql`${target.id}`,
        format: (id) => `the ${MODULE_CATALOGUE.find((m) => m.id === id)?.label ?? id} module`,
      },
    ],
  },
};
