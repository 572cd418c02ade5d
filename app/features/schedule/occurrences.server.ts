/**
 * Changing or deleting one occurrence of a repeating event ("This event", "This and following
 * events", "All events"): each choice is one D1 batch with its audit entry.
 */
import { and, eq } from "drizzle-orm";
import { dbFor } from "~/db/client.server";
import { events } from "~/db/schema";
import type { Actor } from "~/features/auth";
import { newId } from "~/utils/ids";
import { seriesEnd } from "./domain/recurrence";
import { exdatesFrom, occurrencesBefore, rruleEndingBefore, shiftSeries, withExdate, type ApplyTo } from "./domain/series-edit";
import { parseRrule, toRrule } from "./domain/recurrence";
import {
  checkReferences,
  deleteEvent,
  eventAudit,
  insertEventStatement,
  sharingStatements,
  updateEvent,
  type EventDetail,
  type EventInput,
  type ScheduleViewer,
} from "./events.server";

type Who = Actor & { ip?: string | null };

/** The series cut short: its rule ends the day before `at`, and its last occurrence's end is recomputed. */
function endSeriesBefore(series: EventDetail, at: number) {
  const rrule = rruleEndingBefore(series.rrule ?? "", at);
  return { rrule, repeatUntil: seriesEnd({ ...series, rrule }), exdates: series.exdates, updatedAt: Date.now() };
}

/** A COUNT in the new series counts on from the occurrences the old one keeps. */
function carriedRule(series: EventDetail, at: number, rrule: string | null): string | null {
  const rule = rrule ? parseRrule(rrule) : null;
  if (!rule?.count) return rrule;
  return toRrule({ ...rule, count: Math.max(1, rule.count - occurrencesBefore(series, at)) });
}

/** Saves an edit made from the occurrence starting at `at` of a series. */
export async function updateOccurrence(
  env: Env,
  viewer: ScheduleViewer,
  actor: Who,
  series: EventDetail,
  at: number,
  apply: ApplyTo,
  input: EventInput,
  viewAll: boolean,
) {
  const first = at === series.startUtc;
  if (apply === "all" || (apply === "following" && first)) {
    const moved = shiftSeries(series, at, input);
    return updateEvent(env, viewer, actor, { ...series, exdates: moved.exdates }, { ...input, startUtc: moved.startUtc, endUtc: moved.endUtc }, viewAll);
  }
  const { problem, authorTeams } = await checkReferences(env, viewer, input, viewAll, series.createdBy);
  if (problem) return { ok: false as const, code: problem };
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const id = newId();
  const change = apply === "this" ? { exdates: withExdate(series.exdates, at), updatedAt: Date.now() } : endSeriesBefore(series, at);
  const next: EventInput = apply === "this" ? { ...input, rrule: null } : { ...input, rrule: carriedRule(series, at, input.rrule) };
  await db.batch([
    db
      .update(events)
      .set(change)
      .where(and(eq(events.tenantId, t), eq(events.id, series.id))),
    insertEventStatement(db, t, id, series.createdBy, next, {
      seriesId: apply === "this" ? series.id : null,
      exdates: apply === "following" ? exdatesFrom(series.exdates, at) : null,
    }),
    ...sharingStatements(db, t, id, series.createdBy, authorTeams, next),
    eventAudit(db, t, actor, "schedule.event.updated", series.id, { title: next.title, start: next.startUtc, occurrence: at, apply, newEvent: id }),
  ]);
  return { ok: true as const, id };
}

/** Deletes the occurrence starting at `at`, or it and the ones after, or the whole series. */
export async function deleteOccurrence(env: Env, viewer: ScheduleViewer, actor: Who, series: EventDetail, at: number, apply: ApplyTo) {
  if (apply === "all" || (apply === "following" && at === series.startUtc)) return deleteEvent(env, viewer, actor, series);
  const db = dbFor(env, viewer.tenantId);
  const t = viewer.tenantId;
  const change = apply === "this" ? { exdates: withExdate(series.exdates, at), updatedAt: Date.now() } : endSeriesBefore(series, at);
  await db.batch([
    db
      .update(events)
      .set(change)
      .where(and(eq(events.tenantId, t), eq(events.id, series.id))),
    eventAudit(db, t, actor, "schedule.event.deleted", series.id, { title: series.title, start: at, occurrence: at, apply }),
  ]);
}
