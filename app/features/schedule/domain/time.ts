import { formatInTimeZone, fromZonedTime } from "date-fns-tz";
import type { ScheduleView } from "~/db/enums";
import { LONDON } from "~/utils/dates";

/** A calendar date as 'yyyy-MM-dd' (a day in London, not an instant). */
export type Ymd = string;

const YMD = /^(\d{4})-(\d{2})-(\d{2})$/;
const HM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Whether `s` is a real calendar date written yyyy-MM-dd. */
export function isYmd(s: string): boolean {
  const m = YMD.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

export function isHm(s: string): boolean {
  return HM.test(s);
}

/** Days since 1970-01-01 of a calendar date (no time zone involved). */
function dayNumber(ymd: Ymd): number {
  const [y, m, d] = ymd.split("-").map(Number) as [number, number, number];
  return Math.floor(Date.UTC(y, m - 1, d) / 86_400_000);
}

function fromDayNumber(n: number): Ymd {
  return new Date(n * 86_400_000).toISOString().slice(0, 10);
}

export function addDays(ymd: Ymd, days: number): Ymd {
  return fromDayNumber(dayNumber(ymd) + days);
}

/** Same day of month `months` later, clamped to the month's last day (31 Jan + 1 month = 28/29 Feb). */
export function addMonths(ymd: Ymd, months: number): Ymd {
  const [y, m, d] = ymd.split("-").map(Number) as [number, number, number];
  const total = y * 12 + (m - 1) + months;
  const ny = Math.floor(total / 12);
  const nm = total - ny * 12;
  const last = new Date(Date.UTC(ny, nm + 1, 0)).getUTCDate();
  return `${String(ny).padStart(4, "0")}-${String(nm + 1).padStart(2, "0")}-${String(Math.min(d, last)).padStart(2, "0")}`;
}

/** The day of month `day` in the month `months` after ymd's month, or null when that month is shorter. */
export function sameDayInMonth(ymd: Ymd, months: number): Ymd | null {
  const day = Number(ymd.slice(8, 10));
  const moved = addMonths(`${ymd.slice(0, 8)}01`, months);
  const last = new Date(Date.UTC(Number(moved.slice(0, 4)), Number(moved.slice(5, 7)), 0)).getUTCDate();
  return day > last ? null : `${moved.slice(0, 8)}${String(day).padStart(2, "0")}`;
}

/** 0 Monday .. 6 Sunday. */
export function weekday(ymd: Ymd): number {
  return (dayNumber(ymd) + 3) % 7;
}

/** The Monday on or before the date (weeks start on Monday). */
export function startOfWeek(ymd: Ymd): Ymd {
  return addDays(ymd, -weekday(ymd));
}

export function daysBetween(from: Ymd, to: Ymd): number {
  return dayNumber(to) - dayNumber(from);
}

// London wall-clock times already turned into instants, kept per isolate: views expand series
// into the same few times of day on the same dates again and again, and each conversion goes
// through the time-zone database. Bounded: emptied when full. Made on first use (no import-time work).
let utcOfLondon: Map<string, number> | undefined;

/** The instant a London wall-clock time happens (UTC ms). */
export function londonToUtc(ymd: Ymd, hm = "00:00"): number {
  const key = `${ymd}T${hm}`;
  utcOfLondon ??= new Map();
  let utc = utcOfLondon.get(key);
  if (utc === undefined) {
    utc = fromZonedTime(`${key}:00`, LONDON).getTime();
    if (utcOfLondon.size >= 20_000) utcOfLondon.clear();
    utcOfLondon.set(key, utc);
  }
  return utc;
}

/**
 * Whether a London wall-clock time happens on a date: on the last Sunday of March the clocks go
 * forward from 01:00 to 02:00, so 01:00-01:59 never does (its conversion lands an hour off). Read
 * back from the instant it converts to.
 */
export function londonTimeExists(ymd: Ymd, hm: string): boolean {
  return londonHm(londonToUtc(ymd, hm)) === hm;
}

/** Why a London wall-clock time does not happen on a date (the hour the clocks skip). */
export function skippedTimeMessage(ymd: Ymd, hm: string): string {
  return `${hm} does not exist on ${longDay(ymd).replace(/^\S+ /, "")}: the clocks go forward from 01:00 to 02:00. Enter a time before 01:00 or from 02:00`;
}

/** The London calendar date of an instant. */
export function londonYmd(utc: number): Ymd {
  return formatInTimeZone(new Date(utc), LONDON, "yyyy-MM-dd");
}

/** The London wall-clock time of an instant, HH:mm. */
export function londonHm(utc: number): string {
  return formatInTimeZone(new Date(utc), LONDON, "HH:mm");
}

/** The London hour (0-23) of an instant. */
export function londonHour(utc: number): number {
  return Number(formatInTimeZone(new Date(utc), LONDON, "H"));
}

export function todayYmd(now = Date.now()): Ymd {
  return londonYmd(now);
}

/** The days a view shows for a date: [first, last + 1) as London dates. */
export function viewDays(view: ScheduleView, date: Ymd): { first: Ymd; end: Ymd } {
  switch (view) {
    case "day":
      return { first: date, end: addDays(date, 1) };
    case "week": {
      const first = startOfWeek(date);
      return { first, end: addDays(first, 7) };
    }
    case "month": {
      // Whole weeks, Monday to Sunday, covering the month.
      const monthStart = `${date.slice(0, 8)}01`;
      const first = startOfWeek(monthStart);
      const nextMonth = addMonths(monthStart, 1);
      const end = addDays(startOfWeek(addDays(nextMonth, -1)), 7);
      return { first, end };
    }
    case "year": {
      const first = `${date.slice(0, 4)}-01-01`;
      return { first, end: `${String(Number(date.slice(0, 4)) + 1).padStart(4, "0")}-01-01` };
    }
  }
}

/** The instants a view covers, [start, end) in UTC ms: London midnights, so a clock change is inside, not lost. */
export function viewRange(view: ScheduleView, date: Ymd): { start: number; end: number } {
  const { first, end } = viewDays(view, date);
  return { start: londonToUtc(first), end: londonToUtc(end) };
}

/** The date one unit of the view before (-1) or after (+1). */
export function stepDate(view: ScheduleView, date: Ymd, dir: -1 | 1): Ymd {
  switch (view) {
    case "day":
      return addDays(date, dir);
    case "week":
      return addDays(date, 7 * dir);
    case "month":
      return addMonths(`${date.slice(0, 8)}01`, dir);
    case "year":
      return `${String(Number(date.slice(0, 4)) + dir).padStart(4, "0")}-01-01`;
  }
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
export const WEEKDAY_SHORT = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"];
const WEEKDAY_LONG = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

export function monthName(month: number): string {
  return MONTHS[month - 1] ?? "";
}

/** en-GB long date of a calendar date: 'Sunday 29 March 2026'. */
export function longDay(ymd: Ymd): string {
  return `${WEEKDAY_LONG[weekday(ymd)]} ${Number(ymd.slice(8, 10))} ${monthName(Number(ymd.slice(5, 7)))} ${ymd.slice(0, 4)}`;
}

/** en-GB short date of a calendar date: 29/03/2026. */
export function shortDay(ymd: Ymd): string {
  return `${ymd.slice(8, 10)}/${ymd.slice(5, 7)}/${ymd.slice(0, 4)}`;
}

/** The heading of a view: 'March 2026', 'Week of 23/03/2026', 'Sunday 29 March 2026', '2026'. */
export function viewTitle(view: ScheduleView, date: Ymd): string {
  switch (view) {
    case "day":
      return longDay(date);
    case "week":
      return `Week of ${shortDay(startOfWeek(date))}`;
    case "month":
      return `${monthName(Number(date.slice(5, 7)))} ${date.slice(0, 4)}`;
    case "year":
      return date.slice(0, 4);
  }
}
