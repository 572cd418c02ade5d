import { formatInTimeZone } from "date-fns-tz";

export const LONDON = "Europe/London";

type DateInput = Date | number | string | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * The formatters of the two most used forms, made once per isolate (an Intl formatter is costly to
 * build, cheap to use): list pages format a few dates on every row. en-GB's numeric date is
 * dd/MM/yyyy and its time HH:mm, the forms below.
 */
// Made on first use rather than at import: a formatter built at module scope is a side effect the
// bundler must keep, which would pull this whole module (and date-fns-tz) into every page that
// imports any one helper from it.
let londonDay: Intl.DateTimeFormat | undefined;
let londonDayTime: Intl.DateTimeFormat | undefined;
const LONDON_DAY = () => (londonDay ??= new Intl.DateTimeFormat("en-GB", { timeZone: LONDON, day: "2-digit", month: "2-digit", year: "numeric" }));
const LONDON_DAY_TIME = () =>
  (londonDayTime ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: LONDON,
    day: "2-digit",
    month: "2-digit",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }));

/** en-GB date in London, e.g. 05/04/2026; 'N/A' when missing or invalid. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "N/A";
  // Four-digit years only: the formatter would not pad a year before 1000.
  const y = d.getUTCFullYear();
  return y >= 1000 && y <= 9999 ? LONDON_DAY().format(d) : formatInTimeZone(d, LONDON, "dd/MM/yyyy");
}

/** en-GB date and time in London, e.g. 05/04/2026, 14:30; 'N/A' when missing or invalid. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const y = d.getUTCFullYear();
  return y >= 1000 && y <= 9999 ? LONDON_DAY_TIME().format(d) : formatInTimeZone(d, LONDON, "dd/MM/yyyy, HH:mm");
}

/** Long en-GB date, e.g. 19 May 2026. */
export function formatLongDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatInTimeZone(d, LONDON, "d MMMM yyyy") : "N/A";
}

function londonDayNumber(d: Date): number {
  const [y, m, day] = formatInTimeZone(d, LONDON, "yyyy-MM-dd").split("-").map(Number);
  return Math.floor(Date.UTC(y, m - 1, day) / 86_400_000);
}

/**
 * Relative time: 'Just now', minutes, hours, 'Yesterday',
 * days up to 6, then 'MMM d, yyyy' (London calendar days).
 */
export function formatRelative(value: DateInput, now: Date = new Date()): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const diffMs = now.getTime() - d.getTime();
  if (diffMs < 60_000) return "Just now";
  const minutes = Math.floor(diffMs / 60_000);
  const days = londonDayNumber(now) - londonDayNumber(d);
  if (days <= 0) {
    if (minutes < 60) return minutes === 1 ? "1 minute ago" : `${minutes} minutes ago`;
    const hours = Math.floor(minutes / 60);
    return hours === 1 ? "1 hour ago" : `${hours} hours ago`;
  }
  if (days === 1) return "Yesterday";
  if (days <= 6) return `${days} days ago`;
  return formatInTimeZone(d, LONDON, "MMM d, yyyy");
}

/** True when the instant falls within `days` (default 3) from now. */
export function isSoon(value: DateInput, now: Date = new Date(), days = 3): boolean {
  const d = toDate(value);
  if (!d) return false;
  const diff = d.getTime() - now.getTime();
  return diff >= 0 && diff <= days * 86_400_000;
}
