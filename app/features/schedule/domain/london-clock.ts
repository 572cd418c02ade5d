import { getTimezoneOffset } from "date-fns-tz";
import { LONDON } from "~/utils/dates";
import type { Ymd } from "./time";

const DAY = 86_400_000;
const WEEK = 7 * DAY;

/** London's offset from UTC at an instant, in ms (0 in winter, 3,600,000 in summer time). */
export function londonOffset(utc: number): number {
  return getTimezoneOffset(LONDON, new Date(utc));
}

/** One stretch of London's offset: from `from` (UTC ms) until the next stretch's `from`. */
export type OffsetSpan = { from: number; offset: number };

/**
 * London's offsets over [start, end): the offset at `start`, then each clock change (the instant it
 * happens, found to the millisecond). Clocks change at most twice a year, never twice in a week.
 */
export function londonOffsets(start: number, end: number): OffsetSpan[] {
  const spans: OffsetSpan[] = [{ from: start, offset: londonOffset(start) }];
  for (let a = start; a < end; a += WEEK) {
    const current = spans[spans.length - 1]!.offset;
    let hi = Math.min(a + WEEK, end) - 1;
    if (londonOffset(hi) === current) continue;
    let lo = a;
    // londonOffset(lo) is the current offset, londonOffset(hi) is not.
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (londonOffset(mid) === current) lo = mid;
      else hi = mid;
    }
    spans.push({ from: hi, offset: londonOffset(hi) });
  }
  return spans;
}

/**
 * London dates and times of instants by arithmetic on the offsets of a range worked out once, so a
 * view with hundreds of events does not format each instant through the time-zone database.
 * Instants outside [start, end) are worked out on their own.
 */
export function londonClock(start: number, end: number) {
  const spans = londonOffsets(start, end);
  const offsetAt = (utc: number) => {
    if (utc < start || utc >= end) return londonOffset(utc);
    let offset = spans[0]!.offset;
    for (const s of spans) if (utc >= s.from) offset = s.offset;
    return offset;
  };
  const wall = (utc: number) => new Date(utc + offsetAt(utc)).toISOString();
  return {
    spans,
    ymd: (utc: number): Ymd => wall(utc).slice(0, 10),
    hm: (utc: number): string => wall(utc).slice(11, 16),
  };
}
