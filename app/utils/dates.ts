import { formatInTimeZone } from "date-fns-tz";

export const LONDON = "Europe/London";

type DateInput = Date | number | string | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** en-GB date in London, e.g. 05/04/2026; 'N/A' when missing or invalid. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  return d ? formatInTimeZone(d, LONDON, "dd/MM/yyyy") : "N/A";
}

/** en-GB date and time in London, e.g. 05/04/2026, 14:30; 'N/A' when missing or invalid. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  return d ? formatInTimeZone(d, LONDON, "dd/MM/yyyy, HH:mm") : "N/A";
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
