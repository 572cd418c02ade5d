import { occurrences, parseRrule, toRrule } from "./recurrence";
import { addDays, daysBetween, londonHm, londonToUtc, londonYmd } from "./time";

/**
 * Changing one occurrence of a repeating event, as calendar users expect: "This event" takes the
 * occurrence out of the series (its start joins `exdates`) and, for an edit, stores it as an event
 * of its own; "This and following events" ends the series the day before and, for an edit, starts
 * a new series there; "All events" changes the series itself.
 */
export const APPLY_TO = ["this", "following", "all"] as const;
export type ApplyTo = (typeof APPLY_TO)[number];

export const APPLY_LABELS: Record<ApplyTo, string> = {
  this: "This event",
  following: "This and following events",
  all: "All events",
};

type Series = { startUtc: number; endUtc: number; rrule: string | null; exdates: string | null };

/** Whether a series has an occurrence starting exactly at `at` (removed ones excluded). */
export function isOccurrenceOf(ev: Series, at: number): boolean {
  if (!ev.rrule || !Number.isSafeInteger(at)) return false;
  return occurrences(ev, at, at + 1).some((o) => o.start === at);
}

/** `exdates` with one more removed occurrence start. */
export function withExdate(exdates: string | null, at: number): string {
  const set = new Set((exdates ?? "").split(",").filter(Boolean));
  set.add(String(at));
  return [...set].sort((a, b) => Number(a) - Number(b)).join(",");
}

/** The removed occurrences at or after `at`, for the new series "this and following" starts there. */
export function exdatesFrom(exdates: string | null, at: number): string | null {
  const kept = (exdates ?? "").split(",").filter((x) => x && Number(x) >= at);
  return kept.length ? kept.join(",") : null;
}

/** The series' rule ended the London day before the occurrence at `at`. */
export function rruleEndingBefore(rrule: string, at: number): string {
  const rule = parseRrule(rrule);
  if (!rule) return rrule;
  return toRrule({ ...rule, until: addDays(londonYmd(at), -1), count: null });
}

/** How many occurrences (removed ones included) a series has before `at`: a COUNT carried on by "this and following" starts after them. */
export function occurrencesBefore(ev: Series, at: number): number {
  return occurrences({ ...ev, exdates: null }, ev.startUtc, at).filter((o) => o.start < at).length;
}

/**
 * "All events" edited from one occurrence: the occurrence moved by whole London days and given a
 * new London time moves the series' first occurrence the same way (so it keeps its wall-clock time
 * across clock changes); the removed occurrences move with it.
 */
export function shiftSeries(ev: Series, at: number, next: { startUtc: number; endUtc: number }) {
  const days = daysBetween(londonYmd(at), londonYmd(next.startUtc));
  const hm = londonHm(next.startUtc);
  const move = (utc: number) => londonToUtc(addDays(londonYmd(utc), days), hm);
  const startUtc = move(ev.startUtc);
  const exdates = ev.exdates
    ? ev.exdates
        .split(",")
        .filter(Boolean)
        .map((x) => String(move(Number(x))))
        .join(",")
    : null;
  return { startUtc, endUtc: startUtc + (next.endUtc - next.startUtc), exdates };
}
