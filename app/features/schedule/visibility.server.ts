import { sql, type SQL } from "drizzle-orm";
import type { Role } from "~/db/schema";

/** Who is looking at the calendar. */
export type ScheduleViewer = { id: string; tenantId: string; role: Role | "superadmin" };

/**
 * The one condition every read of events goes through (the views, an event's page, the ICS feed,
 * edits and deletes): the tenant's events this person may see, written against the `events` table
 * by its name. Everyone sees the events they created, those shared with them or with everyone,
 * and those in calendars they are members of; a lead also those of their teams; a manager also
 * those of their teams and sites; an administrator every event. Events of archived calendars
 * are hidden from everyone.
 */
export function visibleEvents(viewer: ScheduleViewer): SQL {
  const t = viewer.tenantId;
  const u = viewer.id;
  const notArchived = sql`NOT EXISTS (SELECT 1 FROM "calendars" ac WHERE ac.tenant_id = ${t} AND ac."id" = "events"."calendar_id" AND ac."archived" = 1)`;
  const tenant = sql`"events"."tenant_id" = ${t}`;
  if (viewer.role === "admin") return sql`(${tenant} AND ${notArchived})`;
  const rules: SQL[] = [
    sql`"events"."created_by" = ${u}`,
    sql`"events"."shared_all" = 1`,
    sql`EXISTS (SELECT 1 FROM "event_shares" es WHERE es.tenant_id = ${t} AND es."event_id" = "events"."id" AND es."user_id" = ${u})`,
    sql`EXISTS (SELECT 1 FROM "calendar_members" cm WHERE cm.tenant_id = ${t} AND cm."calendar_id" = "events"."calendar_id" AND cm."user_id" = ${u})`,
  ];
  if (viewer.role === "lead" || viewer.role === "manager") {
    rules.push(
      sql`EXISTS (SELECT 1 FROM "event_teams" et JOIN "team_members" tm ON tm.tenant_id = et.tenant_id AND tm."team_id" = et."team_id" WHERE et.tenant_id = ${t} AND et."event_id" = "events"."id" AND tm."user_id" = ${u})`,
    );
  }
  if (viewer.role === "manager") {
    rules.push(sql`EXISTS (SELECT 1 FROM "site_members" sm WHERE sm.tenant_id = ${t} AND sm."site_id" = "events"."site_id" AND sm."user_id" = ${u})`);
  }
  if (viewer.role === "superadmin") return sql`1 = 0`;
  return sql`(${tenant} AND ${notArchived} AND (${sql.join(rules, sql` OR `)}))`;
}
