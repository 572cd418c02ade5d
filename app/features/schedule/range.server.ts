import { sql, type SQL } from "drizzle-orm";
import { LONG_EVENT_MS, MAX_EVENT_MS } from "./domain/event-length";
import type { OffsetSpan } from "./domain/london-clock";

/** A range's bounds: UTC ms, or SQL that picks them (the person's stored view). */
export type Bound = SQL | number;

const start = sql`"events"."start_utc"`;
const end = sql`"events"."end_utc"`;
const length = sql`"events"."end_utc" - "events"."start_utc"`;
const single = sql`"events"."rrule" IS NULL`;
const series = sql`"events"."rrule" IS NOT NULL`;
// Written into the SQL, not bound: SQLite matches a partial index's condition to literal values.
const LONG = sql.raw(String(LONG_EVENT_MS));
const MAX = sql.raw(String(MAX_EVENT_MS));

/**
 * The single events overlapping [s, e), as three disjoint conditions, each read through its own
 * index so a view reads the events of its days, not every event since the tenant's first:
 * - up to a day long (most events): those starting from a day before the range (events_tenant_start);
 * - longer, up to the 31-day limit: starting from 31 days before (events_tenant_long_start, partial);
 * - longer than the limit (saved before there was one): the few that began earlier still
 *   (events_tenant_overlong_start, partial).
 * The length expressions are written as the partial indexes' own, so SQLite matches them.
 */
export function singleEventRanges(s: Bound, e: Bound): SQL[] {
  const overlaps = sql`${end} > ${s} AND ${start} < ${e}`;
  return [
    sql`(${single} AND ${length} <= ${LONG} AND ${start} >= ${s} - ${LONG} AND ${overlaps})`,
    sql`(${single} AND ${length} > ${LONG} AND ${start} >= ${s} - ${MAX} AND ${overlaps})`,
    sql`(${single} AND ${length} > ${MAX} AND ${start} < ${s} - ${MAX} AND ${overlaps})`,
  ];
}

/**
 * The series that may have an occurrence in [s, e): begun before its end and not ended before its
 * start (`repeat_until`, the end of the last occurrence; null while it repeats for ever), read
 * through events_tenant_series_end. The start is written `+start_utc` so SQLite does not walk the
 * (tenant, start) index from the tenant's first event instead.
 */
export function seriesRanges(s: Bound, e: Bound): SQL[] {
  const begun = sql`+${start} < ${e}`;
  return [sql`(${series} AND "events"."repeat_until" IS NULL AND ${begun})`, sql`(${series} AND "events"."repeat_until" > ${s} AND ${begun})`];
}

/**
 * The London day (days since 1970-01-01) of an instant given as SQL, by London's offsets over the
 * range it falls in (`londonOffsets`): SQLite knows no time zones.
 */
export function londonDaySql(utc: SQL, spans: OffsetSpan[]): SQL {
  const cases = [...spans]
    .reverse()
    .slice(0, -1)
    .map((sp) => sql`WHEN ${utc} >= ${sp.from} THEN ${sp.offset}`);
  const offset = cases.length ? sql`(CASE ${sql.join(cases, sql` `)} ELSE ${spans[0]!.offset} END)` : sql`${spans[0]!.offset}`;
  // Bound numbers may arrive as reals: the cast makes it a whole day (instants here are after 1970).
  return sql`CAST((${utc} + ${offset}) / 86400000 AS INTEGER)`;
}
