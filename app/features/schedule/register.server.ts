import { and, eq, sql } from "drizzle-orm";
import { calendars, events, sites, teams } from "~/db/schema";
import type { ServerFeature } from "~/features/platform/index.server";

/** The calendar in the server runtime: how the audit log names its events, calendars, teams and sites. */
export const scheduleServer: ServerFeature = {
  name: "schedule",
  auditNamers: {
    targets: [
      { targetType: "event", name: (t) => sql`SELECT ${events.title} FROM ${events} WHERE ${and(eq(events.id, t.id), eq(events.tenantId, t.tenantId))}` },
      {
        targetType: "calendar",
        name: (t) => sql`SELECT ${calendars.name} FROM ${calendars} WHERE ${and(eq(calendars.id, t.id), eq(calendars.tenantId, t.tenantId))}`,
      },
      { targetType: "team", name: (t) => sql`SELECT ${teams.name} FROM ${teams} WHERE ${and(eq(teams.id, t.id), eq(teams.tenantId, t.tenantId))}` },
      { targetType: "site", name: (t) => sql`SELECT ${sites.name} FROM ${sites} WHERE ${and(eq(sites.id, t.id), eq(sites.tenantId, t.tenantId))}` },
    ],
  },
};
