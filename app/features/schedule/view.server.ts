import { SCHEDULE_VIEWS, type EventStatus, type EventType, type ScheduleView } from "~/db/schema";
import { occurrences } from "./domain/recurrence";
import { addDays, londonHm, londonYmd, viewDays, viewRange, type Ymd } from "./domain/time";
import type { ViewQuery } from "./domain/view-query";
import { loadScheduleView, VIEW_ROW_LIMIT, type EventRow, type ScheduleViewer } from "./events.server";
import type { SchedulePerms } from "./module.server";
import type { ReadOnlyEvent } from "./read-only-sources.server";

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

/** Buckets the occurrences overlapping the view's days by London day. */
export function bucketByDay(rows: EventRow[], first: Ymd, end: Ymd, external: ReadOnlyEvent[] = []): Record<Ymd, DayItem[]> {
  const days: Record<Ymd, DayItem[]> = {};
  for (let d = first; d < end; d = addDays(d, 1)) days[d] = [];
  const start = viewRange("day", first).start;
  const stop = viewRange("day", addDays(end, -1)).end;
  for (const row of rows) {
    for (const o of occurrences(row, start, stop)) {
      const startDay = londonYmd(o.start);
      const lastDay = londonYmd(o.end - 1);
      for (let d = startDay < first ? first : startDay; d <= lastDay && d < end; d = addDays(d, 1)) {
        days[d]?.push({
          id: row.id,
          title: row.title,
          type: row.type,
          status: row.status,
          at: o.start,
          from: d === startDay ? londonHm(o.start) : null,
          to: d === lastDay ? londonHm(o.end) : null,
          hour: d === startDay ? Number(londonHm(o.start).slice(0, 2)) : 0,
          repeats: row.rrule !== null,
        });
      }
    }
  }
  for (const e of external) {
    const startDay = londonYmd(e.start);
    const lastDay = londonYmd(e.end - 1);
    for (let d = startDay < first ? first : startDay; d <= lastDay && d < end; d = addDays(d, 1)) {
      days[d]?.push({ id: e.key, title: e.title, type: e.type, status: "amber", at: e.start, from: null, to: null, hour: 0, repeats: false, href: e.href });
    }
  }
  for (const list of Object.values(days)) list.sort((a, b) => a.at - b.at || a.title.localeCompare(b.title));
  return days;
}

export async function scheduleViewData(
  env: Env,
  viewer: ScheduleViewer,
  q: ViewQuery,
  perms: SchedulePerms,
  external: (range: { start: number; end: number }) => ReadOnlyEvent[] = () => [],
) {
  const ranges = Object.fromEntries(SCHEDULE_VIEWS.map((v) => [v, viewRange(v, q.date)])) as Record<ScheduleView, { start: number; end: number }>;
  const filters = { cal: q.cal, type: q.type, user: q.user, team: perms.editTeam ? q.team : null };
  const data = await loadScheduleView(env, viewer, { ranges, view: q.view, filters, viewAllCalendars: perms.viewAllCalendars, withTeams: perms.editTeam });
  const view: ScheduleView = q.view ?? data.lastView;
  const { first, end } = viewDays(view, q.date);
  // Read-only events of other features join the unfiltered view (or one filtered by type only).
  const plain = !q.cal && !q.user && !(perms.editTeam && q.team);
  const extra = plain ? external(viewRange(view, q.date)).filter((e) => !q.type || e.type === q.type) : [];
  const days = bucketByDay(data.rows, first, end, extra);
  const copied = q.copy ? (data.rows.find((r) => r.id === q.copy)?.title ?? null) : null;
  return {
    view,
    first,
    end,
    // The year view shows how many events each day has, not the events.
    days: view === "year" ? null : days,
    counts: view === "year" ? Object.fromEntries(Object.entries(days).map(([d, list]) => [d, list.length])) : null,
    truncated: data.rows.length >= VIEW_ROW_LIMIT,
    calendars: data.calendars.map((c) => ({ id: c.id, name: c.name, color: c.color })),
    people: data.people,
    teams: data.teams,
    copied,
  };
}
