import { CRONS, type ServerFeature } from "~/features/platform/index.server";
import { runAuthHousekeeping } from "./housekeeping.server";

/** Auth's server registration: hourly purge of spent sessions, used tokens and old throttle rows. */
export const authServer: ServerFeature = {
  name: "auth",
  cron: [{ cron: CRONS.hourly, name: "auth-housekeeping", run: (env, t) => runAuthHousekeeping(env, t) }],
};
