import { fromZonedTime } from "date-fns-tz";
import { keptPerIsolate } from "~/utils/kept";

/**
 * CIS tax months are defined on the London wall clock, so every calendar
 * question here goes through Europe/London explicitly. Nothing reads the host's
 * local time (getDate/getMonth...), because Workers run in UTC and developer
 * machines do not.
 */
export const LONDON_TZ = "Europe/London";

const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"] as const;

export interface TaxMonthDeadlines {
  /** 19th of the ending month, 23:59:59 London. */
  statements: Date;
  /** 19th of the ending month, 23:59:59 London. */
  filing: Date;
  /** 22nd of the ending month, 23:59:59 London. */
  payment: Date;
}

export interface TaxMonth {
  /** 'YYYY-MM' of the month the period starts in. */
  label: string;
  /** 6th 00:00:00.000 London. */
  start: Date;
  /** 5th of the next month 23:59:59.999 London. */
  end: Date;
  /** '6 April to 5 May 2026'; the year is the year of the end date. */
  displayLabel: string;
  /** The London calendar date the period ends on, 'YYYY-MM-05' (HMRC's PeriodEnd). */
  periodEnd: string;
  deadlines: TaxMonthDeadlines;
}

export class TaxMonthError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TaxMonthError";
  }
}

const LABEL_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;
const MIN_YEAR = 1900;
const MAX_YEAR = 9998;

const pad2 = (n: number) => String(n).padStart(2, "0");

function londonWallClock(y: number, m: number, d: number, time: string): Date {
  return fromZonedTime(`${y}-${pad2(m)}-${pad2(d)}T${time}`, LONDON_TZ);
}

// One formatter per isolate: building an Intl formatter is costly, using one is cheap. Made on
// first use, not at import, so importing this module has no side effect.
let londonDateFormat: Intl.DateTimeFormat | undefined;

type LondonDate = { year: number; month: number; day: number };

// London's offset from UTC has always been a whole number of 15-second steps (whole hours since
// 1847, -0:01:15 before), and its clocks change on such a step, so the London date is the same
// throughout each 15-second window since the epoch, its first instant included. Pages ask for
// today's date several times a request and for the dates of the same few deadlines on every
// request (each deadline indicator compares today with its deadline): each window's answer is kept.
const DATE_WINDOW_MS = 15_000;
const londonDateOfWindow = keptPerIsolate(512, (window: number): Readonly<LondonDate> => Object.freeze(computeLondonDate(new Date(window * DATE_WINDOW_MS))));

/** Year, month (1-12) and day of the London calendar date the instant falls on. */
export function londonDateParts(instant: Date): LondonDate {
  assertValidDate(instant);
  return { ...londonDateOfWindow(Math.floor(instant.getTime() / DATE_WINDOW_MS)) };
}

function computeLondonDate(instant: Date): LondonDate {
  londonDateFormat ??= new Intl.DateTimeFormat("en-GB", { timeZone: LONDON_TZ, era: "short", year: "numeric", month: "numeric", day: "numeric" });
  let year = 0;
  let month = 0;
  let day = 0;
  let beforeChrist = false;
  for (const p of londonDateFormat.formatToParts(instant)) {
    if (p.type === "year") year = Number(p.value);
    else if (p.type === "month") month = Number(p.value);
    else if (p.type === "day") day = Number(p.value);
    else if (p.type === "era") beforeChrist = p.value === "BC" || p.value === "B";
  }
  // ISO years, as date-fns counts them: 1 BC is year 0.
  return { year: beforeChrist ? 1 - year : year, month, day };
}

function assertValidDate(instant: Date): void {
  if (!(instant instanceof Date) || Number.isNaN(instant.getTime())) {
    throw new TaxMonthError("A valid date is required");
  }
}

function shiftMonth(year: number, month: number, delta: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + delta;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function isTaxMonthLabel(label: unknown): label is string {
  if (typeof label !== "string") return false;
  const m = LABEL_RE.exec(label);
  if (!m) return false;
  const year = Number(m[1]);
  return year >= MIN_YEAR && year <= MAX_YEAR;
}

/** A tax month's instants as epoch ms, with its texts: what never changes for a label. */
type TaxMonthFacts = { start: number; end: number; filing: number; payment: number; displayLabel: string; periodEnd: string };

// The facts of the labels seen lately, per isolate: working out the London wall-clock boundaries
// is the costly part of a tax month, and pages ask for the same few months on every request.
// At most 240 kept.
const taxMonthFacts = keptPerIsolate(240, (label: string): TaxMonthFacts => {
  const year = Number(label.slice(0, 4));
  const month = Number(label.slice(5, 7));
  const next = shiftMonth(year, month, 1);
  const facts: TaxMonthFacts = {
    start: londonWallClock(year, month, 6, "00:00:00").getTime(),
    end: londonWallClock(next.year, next.month, 6, "00:00:00").getTime() - 1,
    filing: londonWallClock(next.year, next.month, 19, "23:59:59").getTime(),
    payment: londonWallClock(next.year, next.month, 22, "23:59:59").getTime(),
    displayLabel: `6 ${MONTH_NAMES[month - 1]} to 5 ${MONTH_NAMES[next.month - 1]} ${next.year}`,
    periodEnd: `${next.year}-${pad2(next.month)}-05`,
  };
  return facts;
});

export function taxMonthFromLabel(label: string): TaxMonth {
  if (!isTaxMonthLabel(label)) {
    throw new TaxMonthError(`Invalid tax month label: ${JSON.stringify(label)} (expected YYYY-MM)`);
  }
  const f = taxMonthFacts(label);
  // New Date objects every call: a caller may change the ones it was given.
  const filing = new Date(f.filing);
  return {
    label,
    start: new Date(f.start),
    end: new Date(f.end),
    displayLabel: f.displayLabel,
    periodEnd: f.periodEnd,
    deadlines: { statements: new Date(f.filing), filing, payment: new Date(f.payment) },
  };
}

function labelFromLondonDate(year: number, month: number, day: number): string {
  // Before the 6th the date still belongs to the month that started on the
  // previous 6th (so 1-5 January belongs to December of the year before).
  const start = day >= 6 ? { year, month } : shiftMonth(year, month, -1);
  return `${start.year}-${pad2(start.month)}`;
}

export function taxMonthOf(instant: Date): TaxMonth {
  const { year, month, day } = londonDateParts(instant);
  return taxMonthFromLabel(labelFromLondonDate(year, month, day));
}

export function currentTaxMonth(now: Date = new Date()): TaxMonth {
  return taxMonthOf(now);
}

/** The tax month of a stored date: 'YYYY-MM-DD' is read as a London calendar date, anything else as an instant. */
export function taxMonthOfDate(value: Date | string): TaxMonth {
  if (typeof value === "string") {
    const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
    if (m) {
      const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
      if (!isCalendarDate(y, mo, d)) throw new TaxMonthError(`Invalid date: ${value}`);
      return taxMonthFromLabel(labelFromLondonDate(y, mo, d));
    }
    const parsed = new Date(value);
    if (Number.isNaN(parsed.getTime()) || !/[zZ]|[+-]\d{2}:?\d{2}$/.test(value)) {
      // Without an offset the instant would depend on the host's time zone.
      throw new TaxMonthError(`Invalid date: ${value}`);
    }
    return taxMonthOf(parsed);
  }
  return taxMonthOf(value);
}

export function isCalendarDate(year: number, month: number, day: number): boolean {
  if (!Number.isInteger(year) || !Number.isInteger(month) || !Number.isInteger(day)) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth;
}

export function previousTaxMonth(label: string): TaxMonth {
  const tm = taxMonthFromLabel(label);
  const prev = shiftMonth(Number(tm.label.slice(0, 4)), Number(tm.label.slice(5, 7)), -1);
  return taxMonthFromLabel(`${prev.year}-${pad2(prev.month)}`);
}

export function nextTaxMonth(label: string): TaxMonth {
  const tm = taxMonthFromLabel(label);
  const next = shiftMonth(Number(tm.label.slice(0, 4)), Number(tm.label.slice(5, 7)), 1);
  return taxMonthFromLabel(`${next.year}-${pad2(next.month)}`);
}

/** Whether the instant falls inside the tax month with this label. */
export function isInTaxMonth(instant: Date, label: string): boolean {
  const tm = taxMonthFromLabel(label);
  const t = instant.getTime();
  return t >= tm.start.getTime() && t <= tm.end.getTime();
}

// ---------------------------------------------------------------------------
// Deadlines

/** London calendar days from `from` to `to` (negative when `to` is an earlier day). */
export function londonCalendarDaysBetween(from: Date, to: Date): number {
  const a = londonDateParts(from);
  const b = londonDateParts(to);
  return Math.round((Date.UTC(b.year, b.month - 1, b.day) - Date.UTC(a.year, a.month - 1, a.day)) / 86_400_000);
}

export type DeadlineState = "overdue" | "urgent" | "pending";

export interface DeadlineIndicator {
  state: DeadlineState;
  days: number;
  text: string;
}

/** A deadline is urgent when 3 days or fewer remain. */
export const URGENT_DEADLINE_DAYS = 3;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/**
 * Days are London calendar days: on the 19th itself a deadline of 19th 23:59:59
 * has "0 days left"; from the 20th it is "1 day overdue".
 */
export function deadlineIndicator(deadline: Date, now: Date): DeadlineIndicator {
  assertValidDate(deadline);
  assertValidDate(now);
  if (now.getTime() > deadline.getTime()) {
    const days = Math.max(1, londonCalendarDaysBetween(deadline, now));
    return { state: "overdue", days, text: `${plural(days, "day")} overdue` };
  }
  const days = londonCalendarDaysBetween(now, deadline);
  return {
    state: days <= URGENT_DEADLINE_DAYS ? "urgent" : "pending",
    days,
    text: `${plural(days, "day")} left`,
  };
}

export const DEADLINE_KINDS = ["statements", "filing", "payment"] as const;
export type DeadlineKind = (typeof DEADLINE_KINDS)[number];
export type DeadlineSeverity = "high" | "critical";

export interface DeadlineAlert {
  kind: DeadlineKind;
  severity: DeadlineSeverity;
  deadline: Date;
  taxMonth: string;
  message: string;
}

export const DEADLINE_SEVERITY: Readonly<Record<DeadlineKind, DeadlineSeverity>> = {
  statements: "high",
  filing: "critical",
  payment: "critical",
};

function formatLondonDay(instant: Date): string {
  const { year, month, day } = londonDateParts(instant);
  return `${day} ${MONTH_NAMES[month - 1]} ${year}`;
}

function alertMessage(kind: DeadlineKind, tm: TaxMonth, deadline: Date, now: Date): string {
  const when = `${formatLondonDay(deadline)} (${deadlineIndicator(deadline, now).text})`;
  switch (kind) {
    case "statements":
      return `Payment and deduction statements for ${tm.displayLabel} are due by ${when}`;
    case "filing":
      return `The CIS300 monthly return for ${tm.displayLabel} must be filed by ${when}`;
    case "payment":
      return `CIS deductions for ${tm.displayLabel} must be paid to HMRC by ${when}`;
  }
}

/**
 * Dashboard deadline alerts: every not-yet-passed deadline within `warningDays`
 * London calendar days of now. Candidates are the tax month that ended most
 * recently (deadlines on the 19th/22nd of this calendar month) and the current
 * one (its deadlines are at least 14 days away, so they only show when
 * warningDays is large). Sorted by deadline.
 */
export function nextDeadlines(now: Date, warningDays: number): DeadlineAlert[] {
  if (!Number.isInteger(warningDays) || warningDays < 0 || warningDays > 30) {
    throw new RangeError("warningDays must be a whole number between 0 and 30");
  }
  const current = taxMonthOf(now);
  const candidates = [previousTaxMonth(current.label), current];
  const alerts: DeadlineAlert[] = [];
  for (const tm of candidates) {
    for (const kind of DEADLINE_KINDS) {
      const deadline = tm.deadlines[kind];
      if (deadline.getTime() < now.getTime()) continue;
      if (londonCalendarDaysBetween(now, deadline) > warningDays) continue;
      alerts.push({
        kind,
        severity: DEADLINE_SEVERITY[kind],
        deadline,
        taxMonth: tm.label,
        message: alertMessage(kind, tm, deadline, now),
      });
    }
  }
  return alerts.sort((a, b) => a.deadline.getTime() - b.deadline.getTime());
}

/** How many whole tax years CIS records are kept after the end of the tax year they belong to. */
export const CIS_RECORD_RETENTION_TAX_YEARS = 6;

/**
 * The retention cut-off for CIS records at `now`: everything made before the instant returned may
 * be deleted. A record belongs to the tax year (6 April to 5 April, London) in which it was made,
 * and is kept until six whole tax years have ended after that one: a record made in the tax year
 * 2026-27 (which ends on 5 April 2027) is kept until 5 April 2033 and may go from 6 April 2033.
 * So at any instant the cut-off is 6 April 00:00 London of the year six before the one in which
 * the current tax year started. (A return is made after its period, so the tax year it was made
 * in is never earlier than the one its figures belong to: the rule never keeps it too briefly.)
 */
export function cisRecordPurgeBefore(now: Date): Date {
  const { year, month, day } = londonDateParts(now);
  const currentTaxYearStart = month > 4 || (month === 4 && day >= 6) ? year : year - 1;
  return londonWallClock(currentTaxYearStart - CIS_RECORD_RETENTION_TAX_YEARS, 4, 6, "00:00:00.000");
}
