export const LONDON = "Europe/London";

type DateInput = Date | number | string | null | undefined;

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/**
 * Dates are shown in London time through the browser's (and the Worker's) own Intl, made once per
 * isolate (a formatter is costly to build, cheap to use). No date library: these helpers run on
 * most pages, and a time-zone library would be a large part of each page's JavaScript.
 */
// Made on first use rather than at import: a formatter built at module scope is a side effect the
// bundler must keep, which would pull this whole module into every page that imports any one
// helper from it.
let londonFormatter: Intl.DateTimeFormat | undefined;
const LONDON_PARTS = () =>
  (londonFormatter ??= new Intl.DateTimeFormat("en-GB", {
    timeZone: LONDON,
    era: "short",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    hourCycle: "h23",
  }));

type LondonParts = { year: number; month: number; day: number; hour: number; minute: number };

// The parts of instants seen lately, by epoch ms: formatToParts is the costly step of every date a
// list shows, and the same dates come back row after row and page after page. Bounded: emptied when full.
const PARTS_KEPT = 2000;
let partsSeen: Map<number, LondonParts> | undefined;

/** The London calendar date and wall-clock time of an instant (years before 1 AD are negative, as in ISO). */
function londonParts(d: Date): LondonParts {
  const at = d.getTime();
  const seen = (partsSeen ??= new Map());
  const known = seen.get(at);
  if (known) return known;
  const parts = Object.freeze(computeLondonParts(d));
  if (seen.size >= PARTS_KEPT) seen.clear();
  seen.set(at, parts);
  return parts;
}

function computeLondonParts(d: Date): LondonParts {
  const parts: Record<string, string> = {};
  for (const p of LONDON_PARTS().formatToParts(d)) parts[p.type] = p.value;
  const year = Number(parts.year);
  return {
    year: parts.era === "BC" || parts.era === "B" ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour) % 24,
    minute: Number(parts.minute),
  };
}

const pad = (n: number, width = 2) => (n < 0 ? `-${String(-n).padStart(width, "0")}` : String(n).padStart(width, "0"));
const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** en-GB date in London, e.g. 05/04/2026; 'N/A' when missing or invalid. */
export function formatDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const p = londonParts(d);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)}`;
}

/** en-GB date and time in London, e.g. 05/04/2026, 14:30; 'N/A' when missing or invalid. */
export function formatDateTime(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const p = londonParts(d);
  return `${pad(p.day)}/${pad(p.month)}/${pad(p.year, 4)}, ${pad(p.hour)}:${pad(p.minute)}`;
}

/** Long en-GB date, e.g. 19 May 2026. */
export function formatLongDate(value: DateInput): string {
  const d = toDate(value);
  if (!d) return "N/A";
  const p = londonParts(d);
  return `${p.day} ${MONTHS[p.month - 1]} ${pad(p.year, 4)}`;
}

function londonDayNumber(d: Date): number {
  const p = londonParts(d);
  const utc = new Date(0);
  utc.setUTCFullYear(p.year, p.month - 1, p.day);
  return Math.floor(utc.getTime() / 86_400_000);
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
  const p = londonParts(d);
  return `${MONTHS[p.month - 1]!.slice(0, 3)} ${p.day}, ${pad(p.year, 4)}`;
}

/** True when the instant falls within `days` (default 3) from now. */
export function isSoon(value: DateInput, now: Date = new Date(), days = 3): boolean {
  const d = toDate(value);
  if (!d) return false;
  const diff = d.getTime() - now.getTime();
  return diff >= 0 && diff <= days * 86_400_000;
}
