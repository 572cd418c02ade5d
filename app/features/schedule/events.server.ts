import { and, asc, eq, inArray, isNull, or, sql, type Column } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import type { AttachableFile } from "~/features/files/index.server";
import {
  calendarMembers,
  calendars,
  eventAttachments,
  events,
  teamMembers,
  eventShares,
  eventTeams,
  users,
  type EventStatus,
  type EventType,
  type EventVisibility,
} from "~/db/schema";
import type { Actor } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { newId } from "~/utils/ids";
import { MAX_EVENT_MS } from "./domain/event-length";
import { seriesEnd } from "./domain/recurrence";
import { visibleEvents, type ScheduleViewer } from "./visibility.server";

export type { ScheduleViewer };

export type EventRow = {
  id: string;
  title: string;
  startUtc: number;
  endUtc: number;
  type: EventType;
  status: EventStatus;
  visibility: EventVisibility;
  calendarId: string | null;
  rrule: string | null;
  exdates: string | null;
  seriesId: string | null;
  createdBy: string;
};

export const eventColumns = {
  id: events.id,
  title: events.title,
  startUtc: events.startUtc,
  endUtc: events.endUtc,
  type: events.type,
  status: events.status,
  visibility: events.visibility,
  calendarId: events.calendarId,
  rrule: events.rrule,
  exdates: events.exdates,
  seriesId: events.seriesId,
  createdBy: events.createdBy,
};

/** Calendars a person may list: every one with view-all-calendars, otherwise those they are a member of; archived ones only when asked. */
export function calendarListQuery(env: Env, viewer: ScheduleViewer, viewAll: boolean, includeArchived: boolean) {
  const db = dbFor(env, viewer.tenantId);
  const member = sql`EXISTS (SELECT 1 FROM "calendar_members" lm WHERE lm.tenant_id = ${viewer.tenantId} AND lm."calendar_id" = "calendars"."id" AND lm."user_id" = ${viewer.id})`;
  return db
    .select({
      id: calendars.id,
      name: calendars.name,
      color: calendars.color,
      type: calendars.type,
      archived: calendars.archived,
      member: sql<number>`${member}`,
    })
    .from(calendars)
    .where(and(eq(calendars.tenantId, viewer.tenantId), viewAll ? undefined : member, includeArchived ? undefined : eq(calendars.archived, false)))
    .orderBy(asc(calendars.name));
}

/**
 * The tenant test of a read or delete of one event's shares, teams or attachments (by event id):
 * written `+tenant_id` so SQLite finds the rows by their primary key (event, …) rather than walk
 * the (tenant, person) or (tenant, team) index, which holds every share of the tenant.
 */
export function sameTenantByEvent(tenantColumn: Column, tenantId: string) {
  return sql`+${tenantColumn} = ${tenantId}`;
}

export type EventDetail = EventRow & { siteId: string | null; sharedAll: boolean; shares: string[]; teamIds: string[] };

/** Extra reads of the event page's batch: its attachments and the file search (files' queries, null when none). */
export type EventPageExtras = { attachments?: BatchItem<"sqlite"> | null; candidates?: BatchItem<"sqlite"> | null };

/** An event this person may see with what its form needs (calendars, people), in one round trip; null when not visible. */
export async function loadEventPage(env: Env, viewer: ScheduleViewer, id: string | null, viewAllCalendars: boolean, extras: EventPageExtras = {}) {
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const ev = db
    .select({ ...eventColumns, siteId: events.siteId, sharedAll: events.sharedAll })
    .from(events)
    .where(and(eq(events.id, id ?? ""), visibleEvents(viewer)));
  const shares = db
    .select({ userId: eventShares.userId })
    .from(eventShares)
    .where(and(sameTenantByEvent(eventShares.tenantId, t), eq(eventShares.eventId, id ?? "")));
  const tms = db
    .select({ teamId: eventTeams.teamId })
    .from(eventTeams)
    .where(and(sameTenantByEvent(eventTeams.tenantId, t), eq(eventTeams.eventId, id ?? "")));
  const cals = calendarListQuery(env, viewer, viewAllCalendars, false);
  const people = db
    .select({ id: users.id, name: users.displayName })
    .from(users)
    .where(and(eq(users.tenantId, t), eq(users.disabled, false), isNull(users.scrubbedAt)))
    .orderBy(asc(users.displayName));
  const more = [extras.attachments, extras.candidates].filter((q): q is BatchItem<"sqlite"> => !!q);
  const [e, s, tm, c, u, ...rest] = (await db.batch([ev, shares, tms, cals, people, ...more])) as [
    (EventRow & { siteId: string | null; sharedAll: boolean })[],
    { userId: string }[],
    { teamId: string }[],
    Awaited<ReturnType<typeof calendarListQuery>>,
    { id: string; name: string }[],
    ...AttachableFile[][],
  ];
  const attachments = extras.attachments ? (rest.shift() ?? []) : [];
  const candidates = extras.candidates ? (rest.shift() ?? []) : null;
  const row = e[0];
  const event: EventDetail | null = row ? { ...row, shares: s.map((x) => x.userId), teamIds: tm.map((x) => x.teamId) } : null;
  return { event, calendars: c, people: u, attachments, candidates };
}

export type EventInput = {
  title: string;
  startUtc: number;
  endUtc: number;
  type: EventType;
  status: EventStatus;
  visibility: EventVisibility;
  calendarId: string | null;
  selectedUsers: string[];
  rrule: string | null;
};

export type SaveEventError = "calendar_not_found" | "person_not_found" | "event_not_found" | "event_too_long";

/** Who may change an event they can see: its creator, or anyone who manages calendars. */
export function mayChangeEvent(viewer: ScheduleViewer, createdBy: string, managesCalendars: boolean): boolean {
  return createdBy === viewer.id || managesCalendars || viewer.role === "admin";
}

/**
 * The sharing an event's visibility stands for: 'Only me' shares with the author alone; 'Specific
 * people' with the people chosen; 'My teams' with everyone plus the author's teams; 'My sites'
 * with everyone plus the author's first site; 'Entire organisation' with everyone.
 */
export function sharingOf(visibility: EventVisibility, authorId: string, selected: string[]) {
  return {
    sharedAll: visibility === "team" || visibility === "site" || visibility === "org",
    shareUsers: visibility === "private" ? [authorId] : visibility === "users" ? [...new Set(selected)] : [],
    authorTeams: visibility === "team",
    authorFirstSite: visibility === "site",
  };
}

/** Checks the calendar and the people named exist in the tenant (and the calendar is open to this person). */
export async function checkReferences(
  env: Env,
  viewer: ScheduleViewer,
  input: EventInput,
  viewAll: boolean,
  authorId: string,
): Promise<{ problem: SaveEventError | null; authorTeams: string[] }> {
  // The form refuses it too; every save path (a new event, an edit, one occurrence's) comes here.
  if (input.endUtc - input.startUtc > MAX_EVENT_MS) return { problem: "event_too_long", authorTeams: [] };
  const db = dbFor(env, viewer.tenantId);
  const cal = db
    .select({ id: calendars.id })
    .from(calendars)
    .where(and(eq(calendars.tenantId, viewer.tenantId), eq(calendars.id, input.calendarId ?? ""), eq(calendars.archived, false)));
  const calMember = db
    .select({ id: calendarMembers.calendarId })
    .from(calendarMembers)
    .where(and(eq(calendarMembers.tenantId, viewer.tenantId), eq(calendarMembers.calendarId, input.calendarId ?? ""), eq(calendarMembers.userId, viewer.id)));
  const people = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.tenantId, viewer.tenantId), inArray(users.id, input.selectedUsers.length ? input.selectedUsers : [""])));
  // The author's teams (at most ten), which 'My teams' shares with.
  const authorTeams = db
    .select({ teamId: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.tenantId, viewer.tenantId), eq(teamMembers.userId, authorId)))
    .orderBy(asc(teamMembers.teamId))
    .limit(10);
  const [c, m, p, tm] = await db.batch([cal, calMember, people, authorTeams]);
  const teamIds = tm.map((r) => r.teamId);
  if (input.calendarId && (!c.length || (!viewAll && !m.length))) return { problem: "calendar_not_found", authorTeams: teamIds };
  if (input.visibility === "users" && p.length !== new Set(input.selectedUsers).size) return { problem: "person_not_found", authorTeams: teamIds };
  return { problem: null, authorTeams: teamIds };
}

export function sharingStatements(db: Db, tenantId: string, eventId: string, authorId: string, authorTeams: string[], input: EventInput) {
  const s = sharingOf(input.visibility, authorId, input.selectedUsers);
  const out = [
    db.delete(eventShares).where(and(sameTenantByEvent(eventShares.tenantId, tenantId), eq(eventShares.eventId, eventId))),
    db.delete(eventTeams).where(and(sameTenantByEvent(eventTeams.tenantId, tenantId), eq(eventTeams.eventId, eventId))),
  ];
  const more = [];
  if (s.shareUsers.length) more.push(db.insert(eventShares).values(s.shareUsers.map((userId) => ({ tenantId, eventId, userId }))));
  if (s.authorTeams && authorTeams.length) more.push(db.insert(eventTeams).values(authorTeams.map((teamId) => ({ tenantId, eventId, teamId }))));
  const site = s.authorFirstSite
    ? sql`(SELECT sm."site_id" FROM "site_members" sm JOIN "sites" st ON st."id" = sm."site_id" AND st.tenant_id = sm.tenant_id WHERE sm.tenant_id = ${tenantId} AND sm."user_id" = ${authorId} ORDER BY st."name" LIMIT 1)`
    : sql`NULL`;
  more.push(
    db
      .update(events)
      .set({ siteId: site, sharedAll: s.sharedAll })
      .where(and(eq(events.tenantId, tenantId), eq(events.id, eventId))),
  );
  return [...out, ...more];
}

/** The columns an event's form sets (the removed occurrences only matter to a series). */
function eventFields(input: EventInput, exdates: string | null) {
  return {
    title: input.title,
    startUtc: input.startUtc,
    endUtc: input.endUtc,
    type: input.type,
    status: input.status,
    visibility: input.visibility,
    calendarId: input.calendarId,
    rrule: input.rrule,
    repeatUntil: input.rrule ? seriesEnd(input) : null,
    exdates: input.rrule ? exdates : null,
  };
}

/** The insert of a new event row (its sharing and audit go in the same batch). */
export function insertEventStatement(
  db: Db,
  tenantId: string,
  id: string,
  createdBy: string,
  input: EventInput,
  extra: { seriesId?: string | null; exdates?: string | null } = {},
) {
  const now = Date.now();
  return db.insert(events).values({
    id,
    tenantId,
    ...eventFields(input, extra.exdates ?? null),
    seriesId: extra.seriesId ?? null,
    createdBy,
    createdAt: now,
    updatedAt: now,
  });
}

/** The audit entry of an event change. */
export function eventAudit(
  db: Db,
  tenantId: string,
  actor: Actor & { ip?: string | null },
  action: "schedule.event.created" | "schedule.event.updated" | "schedule.event.deleted",
  id: string,
  payload: Record<string, unknown>,
) {
  return auditInsert(db, { tenantId, action, actorId: actor.id, actorEmail: actor.email, targetType: "event", targetId: id, payload, ip: actor.ip ?? null });
}

export async function createEvent(env: Env, viewer: ScheduleViewer, actor: Actor & { ip?: string | null }, input: EventInput, viewAll: boolean) {
  const { problem, authorTeams } = await checkReferences(env, viewer, input, viewAll, viewer.id);
  if (problem) return { ok: false as const, code: problem };
  const db = dbFor(env, viewer.tenantId);
  const id = newId();
  await db.batch([
    insertEventStatement(db, viewer.tenantId, id, viewer.id, input),
    ...sharingStatements(db, viewer.tenantId, id, viewer.id, authorTeams, input),
    eventAudit(db, viewer.tenantId, actor, "schedule.event.created", id, { title: input.title, start: input.startUtc }),
  ]);
  return { ok: true as const, id };
}

export async function updateEvent(
  env: Env,
  viewer: ScheduleViewer,
  actor: Actor & { ip?: string | null },
  existing: EventDetail,
  input: EventInput,
  viewAll: boolean,
) {
  const { problem, authorTeams } = await checkReferences(env, viewer, input, viewAll, existing.createdBy);
  if (problem) return { ok: false as const, code: problem };
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  await db.batch([
    db
      .update(events)
      .set({
        ...eventFields(input, existing.exdates),
        updatedAt: Date.now(),
      })
      .where(and(eq(events.tenantId, t), eq(events.id, existing.id))),
    // Sharing follows the visibility as the event's creator chose it.
    ...sharingStatements(db, t, existing.id, existing.createdBy, authorTeams, input),
    eventAudit(db, t, actor, "schedule.event.updated", existing.id, { title: input.title, start: input.startUtc }),
  ]);
  return { ok: true as const, id: existing.id };
}

/** Deletes an event (every occurrence of a series, and the occurrences taken out of it) with its sharing. */
export async function deleteEvent(env: Env, viewer: ScheduleViewer, actor: Actor & { ip?: string | null }, existing: EventDetail) {
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const family = or(eq(events.id, existing.id), eq(events.seriesId, existing.id));
  const ids = db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.tenantId, t), family));
  await db.batch([
    db.delete(eventShares).where(and(sameTenantByEvent(eventShares.tenantId, t), inArray(eventShares.eventId, ids))),
    db.delete(eventTeams).where(and(sameTenantByEvent(eventTeams.tenantId, t), inArray(eventTeams.eventId, ids))),
    db.delete(eventAttachments).where(and(eq(eventAttachments.tenantId, t), inArray(eventAttachments.eventId, ids))),
    db.delete(events).where(and(eq(events.tenantId, t), family)),
    eventAudit(db, t, actor, "schedule.event.deleted", existing.id, { title: existing.title, start: existing.startUtc }),
  ]);
}
