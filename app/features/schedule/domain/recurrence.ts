import { addDays, daysBetween, londonHm, londonToUtc, londonYmd, sameDayInMonth, startOfWeek, weekday, type Ymd } from "./time";

/**
 * Simple recurrence, stored as an RFC 5545 RRULE value: FREQ DAILY, WEEKLY (BYDAY weekdays) or
 * MONTHLY (the start's day of month; months without it are skipped), an INTERVAL, and an end:
 * UNTIL (the end of a London day, written in UTC) or COUNT, or neither (for ever). Occurrences
 * keep the first one's London wall-clock time, so a 07:30 shift stays 07:30 across clock changes.
 */
export const REPEAT_FREQS = ["daily", "weekly", "monthly"] as const;
export type RepeatFreq = (typeof REPEAT_FREQS)[number];
export const BYDAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;

export type Repeat = {
  freq: RepeatFreq;
  interval: number;
  /** Weekdays 0 Monday .. 6 Sunday (weekly only; empty means the start's weekday). */
  weekdays: number[];
  /** Last London date an occurrence may start on. */
  until: Ymd | null;
  count: number | null;
};

/** No series produces more occurrences than this (a guard for the feed and the year view). */
export const MAX_OCCURRENCES = 1000;

export function toRrule(r: Repeat): string {
  const parts = [`FREQ=${r.freq.toUpperCase()}`];
  if (r.interval > 1) parts.push(`INTERVAL=${r.interval}`);
  if (r.freq === "weekly" && r.weekdays.length)
    parts.push(
      `BYDAY=${[...new Set(r.weekdays)]
        .sort()
        .map((d) => BYDAY_CODES[d])
        .join(",")}`,
    );
  if (r.until) {
    const endUtc = londonToUtc(addDays(r.until, 1)) - 1000;
    parts.push(
      `UNTIL=${new Date(endUtc)
        .toISOString()
        .replace(/[-:]/g, "")
        .replace(/\.\d{3}/, "")}`,
    );
  } else if (r.count) parts.push(`COUNT=${r.count}`);
  return parts.join(";");
}

/** Parses the subset toRrule writes; null for anything else. */
export function parseRrule(rrule: string): Repeat | null {
  const fields = new Map(rrule.split(";").map((p) => p.split("=", 2) as [string, string]));
  const freq = fields.get("FREQ")?.toLowerCase();
  if (!freq || !(REPEAT_FREQS as readonly string[]).includes(freq)) return null;
  const interval = Number(fields.get("INTERVAL") ?? "1");
  if (!Number.isInteger(interval) || interval < 1 || interval > 99) return null;
  const weekdays = (fields.get("BYDAY") ?? "")
    .split(",")
    .filter(Boolean)
    .map((c) => (BYDAY_CODES as readonly string[]).indexOf(c));
  if (weekdays.some((d) => d < 0)) return null;
  let until: Ymd | null = null;
  const u = fields.get("UNTIL");
  if (u) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})Z)?$/.exec(u);
    if (!m) return null;
    until = m[4] ? londonYmd(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!)) : `${m[1]}-${m[2]}-${m[3]}`;
  }
  const c = fields.get("COUNT");
  const count = c ? Number(c) : null;
  if (count !== null && (!Number.isInteger(count) || count < 1)) return null;
  return { freq: freq as RepeatFreq, interval, weekdays, until, count };
}

/** The London start dates of a series in order, from the first, until `stopAfter` (a London date) or its end. */
function* seriesDates(first: Ymd, r: Repeat, stopAfter: Ymd): Generator<Ymd> {
  const last = r.until && r.until < stopAfter ? r.until : stopAfter;
  let produced = 0;
  const emit = (d: Ymd) => d >= first && d <= last;
  if (r.freq === "daily") {
    for (let d = first; d <= last && produced < MAX_OCCURRENCES; d = addDays(d, r.interval)) {
      produced++;
      yield d;
    }
    return;
  }
  if (r.freq === "weekly") {
    const days = r.weekdays.length ? [...new Set(r.weekdays)].sort() : [weekday(first)];
    for (let week = startOfWeek(first); week <= last && produced < MAX_OCCURRENCES; week = addDays(week, 7 * r.interval)) {
      for (const wd of days) {
        const d = addDays(week, wd);
        if (!emit(d)) continue;
        produced++;
        yield d;
        if (produced >= MAX_OCCURRENCES) return;
      }
    }
    return;
  }
  for (let k = 0; produced < MAX_OCCURRENCES; k += r.interval) {
    const d = sameDayInMonth(first, k);
    if (d === null) continue;
    if (d > last) return;
    produced++;
    yield d;
  }
}

export type Occurrence = { start: number; end: number };

/**
 * The occurrences of an event that overlap [rangeStart, rangeEnd): the event itself when it does
 * not repeat, otherwise each one of its series (less the removed ones in `exdates`).
 */
export function occurrences(
  ev: { startUtc: number; endUtc: number; rrule: string | null; exdates?: string | null },
  rangeStart: number,
  rangeEnd: number,
): Occurrence[] {
  const overlaps = (o: Occurrence) => o.start < rangeEnd && o.end > rangeStart;
  const rule = ev.rrule ? parseRrule(ev.rrule) : null;
  if (!rule) {
    const only = { start: ev.startUtc, end: ev.endUtc };
    return overlaps(only) ? [only] : [];
  }
  const duration = ev.endUtc - ev.startUtc;
  const first = londonYmd(ev.startUtc);
  const hm = londonHm(ev.startUtc);
  const removed = new Set((ev.exdates ?? "").split(",").filter(Boolean).map(Number));
  // Occurrences starting after the range's last day cannot overlap it, nor can those starting more
  // than their length (in whole days, plus one for the clock) before its first day: those are only
  // counted, not turned into instants (the costly step), so a long-running series stays cheap.
  const stopAfter = londonYmd(rangeEnd);
  const skipBefore = addDays(londonYmd(rangeStart), -(Math.ceil(duration / 86_400_000) + 1));
  const out: Occurrence[] = [];
  let n = 0;
  for (const d of seriesDates(first, rule, stopAfter)) {
    n++;
    if (rule.count !== null && n > rule.count) break;
    if (d < skipBefore) continue;
    const start = londonToUtc(d, hm);
    const o = { start, end: start + duration };
    if (!removed.has(start) && overlaps(o)) out.push(o);
  }
  return out;
}

/** The end of a series' last occurrence (UTC ms), or null when it repeats for ever. */
export function seriesEnd(ev: { startUtc: number; endUtc: number; rrule: string | null }): number | null {
  if (!ev.rrule) return ev.endUtc;
  const rule = parseRrule(ev.rrule);
  if (!rule) return ev.endUtc;
  if (!rule.until && !rule.count) return null;
  const horizon = rule.until ?? addDays(londonYmd(ev.startUtc), 366 * 20);
  const all = occurrences(ev, ev.startUtc, londonToUtc(addDays(horizon, 1)) + (ev.endUtc - ev.startUtc));
  return all.length ? all[all.length - 1]!.end : ev.endUtc;
}

/** Days from one London date to another, for moving an event (copy and paste keeps the time of day). */
export function shiftDays(utc: number, days: number): number {
  return londonToUtc(addDays(londonYmd(utc), days), londonHm(utc));
}

export { daysBetween };
