/** The lists' dates and group headings, in London time; worked out on the server so pages ship no time-zone code. */
import { formatInTimeZone } from "date-fns-tz";
import { LONDON } from "~/utils/dates";

function londonDay(ms: number): number {
  const [y, m, d] = formatInTimeZone(new Date(ms), LONDON, "yyyy-MM-dd").split("-").map(Number);
  return Math.floor(Date.UTC(y!, m! - 1, d!) / 86_400_000);
}

/** The list's group heading for a note last updated at `ms`: Today, Yesterday, This Week (within 7 days), else month and year (London days). */
export function groupLabel(ms: number, now: number): string {
  const days = londonDay(now) - londonDay(ms);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return "This Week";
  return formatInTimeZone(new Date(ms), LONDON, "MMMM yyyy");
}

/** A card's date: Today, Yesterday, N days ago, else 'MMM d' (London days). */
export function relativeDay(ms: number, now: number): string {
  const days = londonDay(now) - londonDay(ms);
  if (days <= 0) return "Today";
  if (days === 1) return "Yesterday";
  if (days < 7) return `${days} days ago`;
  return formatInTimeZone(new Date(ms), LONDON, "MMM d");
}

/** A list row's date, e.g. 'Nov 27, 9:05 AM' in London. */
export function listDate(ms: number): string {
  return formatInTimeZone(new Date(ms), LONDON, "MMM d, h:mm a");
}

/** The labels a list row shows for a note last updated at `ms`. */
export function dateLabels(ms: number, now: number) {
  return { group: groupLabel(ms, now), day: relativeDay(ms, now), when: listDate(ms) };
}
