import { formatDateTime } from "~/utils/dates";
import { addDays, addMonths, isHm, isYmd, startOfWeek, type Ymd } from "./time";

/**
 * The date-time picker's rules: a London wall-clock date and time (what the person reads on the
 * clock in the UK), the month grid, the 15-minute step and the clock changes. No time-zone library:
 * the browser's Intl answers the London time of an instant, so the picker's chunk stays small.
 */

/** A London calendar date and wall-clock time, as the form sends them ('yyyy-MM-dd', 'HH:mm'). */
export type WallClock = { date: Ymd; time: string };

/** Minutes offered on the Time tab: 00, 15, 30, 45. */
export const MINUTE_STEP = 15;
export const MINUTES = [0, 15, 30, 45] as const;
export const HOURS = Array.from({ length: 24 }, (_, h) => h);
/** The time a day starts at when the field has none. */
export const DEFAULT_TIME = "09:00";

const pad = (n: number) => String(n).padStart(2, "0");
const STEP_MS = MINUTE_STEP * 60_000;

export const hm = (hour: number, minute: number) => `${pad(hour)}:${pad(minute)}`;
export const hourOf = (time: string) => Number(time.slice(0, 2));
export const minuteOf = (time: string) => Number(time.slice(3, 5));

/** The month grid of the month holding `ymd`: six weeks of seven days, each week Monday to Sunday. */
export function monthGrid(ymd: Ymd): Ymd[][] {
  const first = startOfWeek(`${ymd.slice(0, 8)}01`);
  return Array.from({ length: 6 }, (_, w) => Array.from({ length: 7 }, (_, d) => addDays(first, w * 7 + d)));
}

export const sameMonth = (a: Ymd, b: Ymd) => a.slice(0, 7) === b.slice(0, 7);

/** The same day one month before or after, clamped to the month's last day (31 March - 1 month = 28/29 February). */
export const stepMonth = (ymd: Ymd, months: number) => addMonths(ymd, months);

/** Minutes since the day began, read from 'HH:mm'. */
const minutesOf = (time: string) => hourOf(time) * 60 + minuteOf(time);

/** A wall-clock date and time moved by whole minutes of the clock face (days roll over; no time zone involved). */
export function addWallMinutes(v: WallClock, minutes: number): WallClock {
  const total = minutesOf(v.time) + minutes;
  const days = Math.floor(total / 1440);
  const rest = total - days * 1440;
  return { date: addDays(v.date, days), time: hm(Math.floor(rest / 60), rest % 60) };
}

/** Minutes of the clock face from `a` to `b` (negative when `b` is earlier). */
export function wallMinutesBetween(a: WallClock, b: WallClock): number {
  const day = (ymd: Ymd) => Math.floor(Date.parse(`${ymd}T00:00:00Z`) / 86_400_000);
  return (day(b.date) - day(a.date)) * 1440 + minutesOf(b.time) - minutesOf(a.time);
}

/** The nearest quarter hour on the clock (07 goes down to 00, 08 up to 15, 23:53 to the next day's 00:00). */
export function roundToStep(v: WallClock): WallClock {
  const m = minutesOf(v.time);
  const rounded = Math.round(m / MINUTE_STEP) * MINUTE_STEP;
  return addWallMinutes({ date: v.date, time: "00:00" }, rounded);
}

/** The London date and wall-clock time of an instant. */
export function londonWallClock(utc: number): WallClock {
  // 'dd/MM/yyyy, HH:mm' in London.
  const s = formatDateTime(utc);
  return { date: `${s.slice(6, 10)}-${s.slice(3, 5)}-${s.slice(0, 2)}`, time: s.slice(12, 17) };
}

/**
 * 'Now' in London rounded to the nearest quarter hour. The instant is rounded, not the clock face,
 * so the answer is always a time the clock shows: at 00:55 GMT on the morning the clocks go
 * forward it is 02:00 BST (01:00 never happens that day).
 */
export function nowRounded(utc: number): WallClock {
  return londonWallClock(Math.round(utc / STEP_MS) * STEP_MS);
}

/** The value the picker opens with: the field's, on the step; a missing date is today and a missing time 09:00. */
export function initialPick(date: string, time: string, today: Ymd): WallClock {
  return roundToStep({ date: isYmd(date) ? date : today, time: isHm(time) ? time : DEFAULT_TIME });
}

/**
 * How many instants show this London wall-clock time: 1 normally, 0 in the hour the clocks skip
 * when they go forward (late March), 2 in the hour they repeat when they go back (late October).
 */
export function occurrencesOfWallClock(v: WallClock): 0 | 1 | 2 {
  const naive = Date.parse(`${v.date}T${v.time}:00Z`);
  // London is UTC+0 (GMT) or UTC+1 (BST): the instant is one of these two.
  const hits = [naive, naive - 3_600_000].filter((utc) => {
    const back = londonWallClock(utc);
    return back.date === v.date && back.time === v.time;
  });
  return hits.length as 0 | 1 | 2;
}

/** The hours of a London day the clocks skip (none, or [1] on the day they go forward). */
export function skippedHours(date: Ymd): number[] {
  return HOURS.filter((h) => MINUTES.every((m) => occurrencesOfWallClock({ date, time: hm(h, m) }) === 0));
}

/** The hours of a London day that happen twice (none, or [1] on the day the clocks go back). */
export function repeatedHours(date: Ymd): number[] {
  return HOURS.filter((h) => occurrencesOfWallClock({ date, time: hm(h, 0) }) === 2);
}

/** A time in an hour the clocks skip moves on by that hour, as the clocks do (01:30 becomes 02:30). */
export function existingTime(v: WallClock): WallClock {
  return occurrencesOfWallClock(v) === 0 ? addWallMinutes(v, 60) : v;
}

/** The end after the start moved from `from` to `to`: it moves by as much, so the event keeps its length on the clock. */
export function followStart(end: WallClock, from: WallClock, to: WallClock): WallClock {
  return addWallMinutes(end, wallMinutesBetween(from, to));
}

/** The read-only field's text: year-month-day hours:minutes. */
export const fieldText = (v: WallClock) => `${v.date} ${v.time}`;
