import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { calendarMembers, calendars, users, type CalendarType } from "~/db/schema";
import type { Actor } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { calendarListQuery, type ScheduleViewer } from "./events.server";

export type CalendarInput = { name: string; color: string; type: CalendarType; members: string[] };
export type CalendarError = "calendar_not_found" | "person_not_found";

/** The calendars page in one round trip: the calendars listed to this person, their members, and the people to choose from. */
export async function loadCalendarsPage(env: Env, viewer: ScheduleViewer, viewAll: boolean, includeArchived: boolean) {
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const [cals, members, people] = await db.batch([
    calendarListQuery(env, viewer, viewAll, includeArchived),
    db.select({ calendarId: calendarMembers.calendarId, userId: calendarMembers.userId }).from(calendarMembers).where(eq(calendarMembers.tenantId, t)),
    db
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(and(eq(users.tenantId, t), eq(users.disabled, false), isNull(users.scrubbedAt)))
      .orderBy(asc(users.displayName)),
  ]);
  const byCalendar = new Map<string, string[]>();
  for (const m of members) byCalendar.set(m.calendarId, [...(byCalendar.get(m.calendarId) ?? []), m.userId]);
  return { calendars: cals.map((c) => ({ ...c, archived: Boolean(c.archived), members: byCalendar.get(c.id) ?? [] })), people };
}

async function peopleExist(env: Env, tenantId: string, ids: string[]): Promise<boolean> {
  if (!ids.length) return true;
  const rows = await dbFor(env, tenantId)
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), sql`${users.id} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`));
  return rows[0]?.n === new Set(ids).size;
}

export async function createCalendar(env: Env, tenantId: string, actor: Actor & { ip?: string | null }, input: CalendarInput) {
  if (!(await peopleExist(env, tenantId, input.members))) return { ok: false as const, code: "person_not_found" as const };
  const db = dbFor(env, tenantId);
  const id = newId();
  const now = Date.now();
  const members = [...new Set(input.members)];
  await db.batch([
    db.insert(calendars).values({ id, tenantId, name: input.name, color: input.color, type: input.type, createdBy: actor.id, createdAt: now, updatedAt: now }),
    ...(members.length ? [db.insert(calendarMembers).values(members.map((userId) => ({ tenantId, calendarId: id, userId })))] : []),
    auditInsert(db, {
      tenantId,
      action: "schedule.calendar.created",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "calendar",
      targetId: id,
      payload: { name: input.name },
      ip: actor.ip ?? null,
    }),
  ]);
  return { ok: true as const, id };
}

async function calendarExists(env: Env, tenantId: string, id: string) {
  const rows = await dbFor(env, tenantId)
    .select({ id: calendars.id, archived: calendars.archived })
    .from(calendars)
    .where(and(eq(calendars.tenantId, tenantId), eq(calendars.id, id)));
  return rows[0] ?? null;
}

export async function updateCalendar(env: Env, tenantId: string, actor: Actor & { ip?: string | null }, id: string, input: CalendarInput) {
  if (!(await calendarExists(env, tenantId, id))) return { ok: false as const, code: "calendar_not_found" as const };
  if (!(await peopleExist(env, tenantId, input.members))) return { ok: false as const, code: "person_not_found" as const };
  const db = dbFor(env, tenantId);
  const members = [...new Set(input.members)];
  await db.batch([
    db
      .update(calendars)
      .set({ name: input.name, color: input.color, type: input.type, updatedAt: Date.now() })
      .where(and(eq(calendars.tenantId, tenantId), eq(calendars.id, id))),
    db.delete(calendarMembers).where(and(eq(calendarMembers.tenantId, tenantId), eq(calendarMembers.calendarId, id))),
    ...(members.length ? [db.insert(calendarMembers).values(members.map((userId) => ({ tenantId, calendarId: id, userId })))] : []),
    auditInsert(db, {
      tenantId,
      action: "schedule.calendar.updated",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "calendar",
      targetId: id,
      payload: { name: input.name, members: members.length },
      ip: actor.ip ?? null,
    }),
  ]);
  return { ok: true as const, id };
}

/** Archives (hides, with its events) or restores a calendar. */
export async function setCalendarArchived(env: Env, tenantId: string, actor: Actor & { ip?: string | null }, id: string, archived: boolean) {
  if (!(await calendarExists(env, tenantId, id))) return { ok: false as const, code: "calendar_not_found" as const };
  const db = dbFor(env, tenantId);
  await db.batch([
    db
      .update(calendars)
      .set({ archived, updatedAt: Date.now() })
      .where(and(eq(calendars.tenantId, tenantId), eq(calendars.id, id))),
    auditInsert(db, {
      tenantId,
      action: archived ? "schedule.calendar.archived" : "schedule.calendar.updated",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "calendar",
      targetId: id,
      payload: { archived },
      ip: actor.ip ?? null,
    }),
  ]);
  return { ok: true as const, id };
}
