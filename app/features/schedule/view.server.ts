import { and, asc, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { dbFor, type Db } from "~/db/client.server";
import { events, schedulePrefs, teams, users, SCHEDULE_VIEWS, type EventStatus, type EventType, type ScheduleView } from "~/db/schema";
import { londonClock, type OffsetSpan } from "./domain/london-clock";
import { occurrences } from "./domain/recurrence";
import { addDays, viewDays, viewRange, type Ymd } from "./domain/time";
import type { ViewQuery } from "./domain/view-query";
import { calendarListQuery, eventColumns, type EventRow, type ScheduleViewer } from "./events.server";
import type { SchedulePerms } from "./module.server";
import { londonDaySql, seriesRanges, singleEventRanges, type Bound } from "./range.server";
import type { ReadOnlyEvent } from "./read-only-sources.server";
import { visibleEvents } from "./visibility.server";

/** The most rows one of a view's reads returns; a very busy tenant's view is cut here (the page says so). */
export const VIEW_ROW_LIMIT = 3000;

/** How many people the User filter lists at most; with more, it lists those whose name matches a search. */
export const PEOPLE_LISTED = 25;

/** How many events a month view's day shows; the rest are counted ("+N more", a link to the day). */
export const MONTH_CELL_EVENTS = 3;

const DAY = 86_400_000;

/** One occurrence as a view shows it, on one London day. */
export type DayItem = {
  id: string;
  title: string;
  type: EventType;
  status: EventStatus;
  /** UTC ms of this occurrence's start (several for a series). */
  at: number;
  /** London times, or null when the occurrence began on an earlier day / ends on a later one. */
  from: string | null;
  to: string | null;
  hour: number;
  repeats: boolean;
  /** A read-only event of another feature (a CIS deadline): its page, instead of the event's. */
  href?: string;
};

type Clock = ReturnType<typeof londonClock>;

/** Buckets the occurrences overlapping the view's days by London day. */
export function bucketByDay(rows: EventRow[], first: Ymd, end: Ymd, external: ReadOnlyEvent[], clock: Clock): Record<Ymd, DayItem[]> {
  const days: Record<Ymd, DayItem[]> = {};
  for (let d = first; d < end; d = addDays(d, 1)) days[d] = [];
  const start = viewRange("day", first).start;
  const stop = viewRange("day", addDays(end, -1)).end;
  const spread = (o: { start: number; end: number }, item: (d: Ymd, startDay: Ymd, lastDay: Ymd) => DayItem) => {
    const startDay = clock.ymd(o.start);
    const lastDay = clock.ymd(o.end - 1);
    for (let d = startDay < first ? first : startDay; d <= lastDay && d < end; d = addDays(d, 1)) days[d]?.push(item(d, startDay, lastDay));
  };
  for (const row of rows) {
    const repeats = row.rrule !== null;
    for (const o of occurrences(row, start, stop)) {
      const from = clock.hm(o.start);
      spread(o, (d, startDay, lastDay) => ({
        id: row.id,
        title: row.title,
        type: row.type,
        status: row.status,
        at: o.start,
        from: d === startDay ? from : null,
        to: d === lastDay ? clock.hm(o.end) : null,
        hour: d === startDay ? Number(from.slice(0, 2)) : 0,
        repeats,
      }));
    }
  }
  for (const e of external) {
    spread(e, () => ({ id: e.key, title: e.title, type: e.type, status: "amber", at: e.start, from: null, to: null, hour: 0, repeats: false, href: e.href }));
  }
  for (const list of Object.values(days)) list.sort((a, b) => a.at - b.at || a.title.localeCompare(b.title));
  return days;
}

export type ViewFilters = { cal: string | null; type: EventType | null; user: string | null; team: string | null };

function filterWhere(viewer: ScheduleViewer, f: ViewFilters): SQL[] {
  const parts: SQL[] = [];
  if (f.cal === "personal") parts.push(sql`"events"."calendar_id" IS NULL`);
  else if (f.cal) parts.push(sql`"events"."calendar_id" = ${f.cal}`);
  if (f.type) parts.push(sql`"events"."type" = ${f.type}`);
  if (f.user) parts.push(sql`"events"."created_by" = ${f.user}`);
  if (f.team)
    parts.push(
      sql`EXISTS (SELECT 1 FROM "team_members" ft WHERE ft.tenant_id = ${viewer.tenantId} AND ft."team_id" = ${f.team} AND ft."user_id" = "events"."created_by")`,
    );
  return parts;
}

/** Single events counted by the London days they run from and to (day numbers since 1970), clamped to [s, e). */
export type DaySpanCount = { first: number; last: number; n: number };

function dayCountQuery(db: Db, where: SQL, s: Bound, e: Bound, offsets: OffsetSpan[]) {
  const first = londonDaySql(sql`max("events"."start_utc", ${s})`, offsets);
  const last = londonDaySql(sql`min("events"."end_utc", ${e}) - 1`, offsets);
  return db
    .select({ first: sql<number>`${first}`, last: sql<number>`${last}`, n: sql<number>`count(*)` })
    .from(events)
    .where(where)
    .groupBy(sql`1`, sql`2`);
}

type ViewOptions = {
  ranges: Record<ScheduleView, { start: number; end: number }>;
  view: ScheduleView | null;
  filters: ViewFilters;
  viewAllCalendars: boolean;
  withTeams: boolean;
  /** London's offsets over every range, for the year view's day counts. */
  offsets: OffsetSpan[];
  /** The User filter's search (part of a name), or null. */
  who: string | null;
};

/**
 * The people the User filter lists: the one chosen first, then everyone (or those whose name holds
 * the search), one more than it lists so the page knows when there are more.
 */
function filterPeopleQuery(db: Db, tenantId: string, chosen: string | null, who: string | null) {
  const named = who ? sql`${users.displayName} LIKE ${`%${who.replace(/[\\%_]/g, (c) => `\\${c}`)}%`} ESCAPE '\\'` : undefined;
  return db
    .select({ id: users.id, name: users.displayName })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false), isNull(users.scrubbedAt), chosen && named ? or(eq(users.id, chosen), named) : named))
    .orderBy(sql`${users.id} = ${chosen ?? ""} DESC`, asc(users.displayName))
    .limit(PEOPLE_LISTED + 1);
}

/**
 * What the User filter shows: up to PEOPLE_LISTED people, the chosen one first. A tenant with more
 * people lists, without a search, only the chosen one, and offers the search (`find`); `more` says a
 * search matched more than it lists.
 */
export function filterPeople(rows: { id: string; name: string }[], chosen: string | null, who: string | null) {
  const many = rows.length > PEOPLE_LISTED;
  if (!who && many) return { people: rows.filter((r) => r.id === chosen), find: true, more: false };
  return { people: rows.slice(0, PEOPLE_LISTED), find: many || !!who, more: many && !!who };
}

/**
 * The reads of a view's events: single events and series, each through its own index (see
 * `range.server.ts`). The year view counts its single events by London day in SQL instead of
 * listing them. When the address names no view, the range and the year-or-not choice are made in
 * SQL from the stored view (`stored`), so the choice costs no extra round trip.
 */
function eventReads(db: Db, viewer: ScheduleViewer, opts: ViewOptions, stored: SQL) {
  const pick = (key: "start" | "end"): Bound =>
    opts.view
      ? opts.ranges[opts.view][key]
      : sql`(CASE ${stored} WHEN 'day' THEN ${opts.ranges.day[key]} WHEN 'week' THEN ${opts.ranges.week[key]} WHEN 'year' THEN ${opts.ranges.year[key]} ELSE ${opts.ranges.month[key]} END)`;
  const [s, e] = [pick("start"), pick("end")];
  const base = [visibleEvents(viewer), ...filterWhere(viewer, opts.filters)];
  const year = opts.view ? opts.view === "year" : null;
  const listed = (range: SQL, gate?: SQL) =>
    db
      .select(eventColumns)
      .from(events)
      .where(and(...base, range, gate))
      .limit(VIEW_ROW_LIMIT);
  const singles = singleEventRanges(s, e);
  const lists = [
    ...(year === true ? [] : singles.map((r) => listed(r, year === null ? sql`${stored} <> 'year'` : undefined))),
    ...seriesRanges(s, e).map((r) => listed(r)),
  ];
  const counts =
    year === false ? [] : singles.map((r) => dayCountQuery(db, and(...base, r, year === null ? sql`${stored} = 'year'` : undefined)!, s, e, opts.offsets));
  return { lists, counts };
}

/**
 * Everything a calendar view shows, in one D1 round trip: the events in range (or, for the year,
 * single events counted by day and the series), the calendars the person may pick, the people and
 * teams for the filters, and their stored last view; when the address names a view, the same
 * batch stores it as the person's last view.
 */
export async function loadScheduleView(env: Env, viewer: ScheduleViewer, opts: ViewOptions) {
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const stored = sql`COALESCE((SELECT "last_view" FROM "schedule_prefs" WHERE "tenant_id" = ${t} AND "user_id" = ${viewer.id}), 'month')`;
  const remember = opts.view
    ? [
        db
          .insert(schedulePrefs)
          .values({ tenantId: t, userId: viewer.id, lastView: opts.view, updatedAt: Date.now() })
          .onConflictDoUpdate({
            target: [schedulePrefs.tenantId, schedulePrefs.userId],
            set: { lastView: opts.view, updatedAt: Date.now() },
            setWhere: ne(schedulePrefs.lastView, opts.view),
          }),
      ]
    : [];
  const prefs = db
    .select({ lastView: schedulePrefs.lastView })
    .from(schedulePrefs)
    .where(and(eq(schedulePrefs.tenantId, t), eq(schedulePrefs.userId, viewer.id)));
  const cals = calendarListQuery(env, viewer, opts.viewAllCalendars, false);
  const people = filterPeopleQuery(db, t, opts.filters.user, opts.who);
  const teamList = db
    .select({ id: teams.id, name: teams.name })
    .from(teams)
    .where(eq(teams.tenantId, opts.withTeams ? t : ""))
    .orderBy(asc(teams.name));
  const { lists, counts } = eventReads(db, viewer, opts, stored);
  const out = (await db.batch([prefs, cals, people, teamList, ...remember, ...lists, ...counts] as [
    BatchItem<"sqlite">,
    ...BatchItem<"sqlite">[],
  ])) as unknown[][];
  const [p, c, u, tm] = out as [{ lastView: ScheduleView }[], Awaited<typeof cals>, { id: string; name: string }[], { id: string; name: string }[]];
  const read = out.slice(4 + remember.length);
  const listed = read.slice(0, lists.length) as EventRow[][];
  const rows = listed.flat().sort((a, b) => a.startUtc - b.startUtc);
  return {
    lastView: p[0]?.lastView ?? "month",
    rows: rows.slice(0, VIEW_ROW_LIMIT),
    truncated: rows.length >= VIEW_ROW_LIMIT,
    dayCounts: read.slice(lists.length).flat() as DaySpanCount[],
    calendars: c,
    people: u,
    teams: tm,
  };
}

const fromDayNumber = (n: number): Ymd => new Date(n * DAY).toISOString().slice(0, 10);

/** The year view's events a day: the single events counted in SQL, and the series' occurrences and read-only events listed. */
function yearCounts(days: Record<Ymd, DayItem[]>, spans: DaySpanCount[]): Record<Ymd, number> {
  const counts: Record<Ymd, number> = {};
  for (const [d, list] of Object.entries(days)) counts[d] = list.length;
  for (const span of spans) {
    for (let n = span.first; n <= span.last; n++) {
      const d = fromDayNumber(n);
      if (d in counts) counts[d]! += span.n;
    }
  }
  return counts;
}

/** A month view's day: the events it shows, and how many it has. */
export type MonthCell = { items: DayItem[]; total: number };

function monthCells(days: Record<Ymd, DayItem[]>): Record<Ymd, MonthCell> {
  return Object.fromEntries(Object.entries(days).map(([d, list]) => [d, { items: list.slice(0, MONTH_CELL_EVENTS), total: list.length }]));
}

export async function scheduleViewData(
  env: Env,
  viewer: ScheduleViewer,
  q: ViewQuery,
  perms: SchedulePerms,
  external: (range: { start: number; end: number }) => ReadOnlyEvent[] = () => [],
) {
  const ranges = Object.fromEntries(SCHEDULE_VIEWS.map((v) => [v, viewRange(v, q.date)])) as Record<ScheduleView, { start: number; end: number }>;
  const all = Object.values(ranges);
  const clock = londonClock(Math.min(...all.map((r) => r.start)), Math.max(...all.map((r) => r.end)));
  const filters = { cal: q.cal, type: q.type, user: q.user, team: perms.editTeam ? q.team : null };
  const data = await loadScheduleView(env, viewer, {
    ranges,
    view: q.view,
    filters,
    viewAllCalendars: perms.viewAllCalendars,
    withTeams: perms.editTeam,
    offsets: clock.spans,
    who: q.who,
  });
  const view: ScheduleView = q.view ?? data.lastView;
  const { first, end } = viewDays(view, q.date);
  // Read-only events of other features join the unfiltered view (or one filtered by type only).
  const plain = !q.cal && !q.user && !(perms.editTeam && q.team);
  const extra = plain ? external(viewRange(view, q.date)).filter((e) => !q.type || e.type === q.type) : [];
  const days = bucketByDay(data.rows, first, end, extra, clock);
  const copied = q.copy ? (data.rows.find((r) => r.id === q.copy)?.title ?? null) : null;
  return {
    view,
    first,
    end,
    days: view === "day" || view === "week" ? days : null,
    // A month's day sends the events it shows and its count; the year view a count a day.
    cells: view === "month" ? monthCells(days) : null,
    counts: view === "year" ? yearCounts(days, data.dayCounts) : null,
    truncated: data.truncated,
    calendars: data.calendars.map((c) => ({ id: c.id, name: c.name, color: c.color })),
    ...filterPeople(data.people, q.user, q.who),
    teams: data.teams,
    copied,
  };
}
