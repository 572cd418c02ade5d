import { and, eq, sql } from "drizzle-orm";
import { users } from "~/db/schema";
import { addressUnused, CRONS, type ServerFeature } from "~/features/platform/index.server";
import { runAuthHousekeeping } from "./housekeeping.server";
import { forgetAddressThrottleStatement } from "./throttle.server";

/** Auth's server registration: hourly purge of spent sessions, used tokens and old throttle rows; members' names in the audit log. */
export const authServer: ServerFeature = {
  name: "auth",
  cron: [{ cron: CRONS.hourly, name: "auth-housekeeping", run: (env, t) => runAuthHousekeeping(env, t) }],
  // Sign-in counters are keyed by the address: forgotten once no account anywhere uses it.
  erasure: (db, p) => [forgetAddressThrottleStatement(db, p.email, and(addressUnused(p.email), p.done) ?? p.done)],
  auditNamers: {
    // A member by their display name ("Former user" once their personal data is erased).
    targets: [
      {
        targetType: "user",
        name: (target) => sql`SELECT ${users.displayName} FROM ${users} WHERE ${and(eq(users.id, target.id), eq(users.tenantId, target.tenantId))}`,
      },
    ],
  },
};
