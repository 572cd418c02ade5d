import { londonHm, londonTimeExists, londonToUtc, type Ymd } from "./domain/time";
import { createEvent, loadEventPage, type ScheduleViewer } from "./events.server";
import type { Actor } from "~/features/auth";

/**
 * Pastes a copy of an event the person may see on another day: same time of day (London), same
 * length, type, status, calendar and visibility; the person pasting is its creator. A series is
 * pasted as one event. Refused, changing nothing, as a save would be (an event longer than the
 * longest an event may last, saved before that limit), or at a time the day does not have.
 */
export async function pasteEvent(env: Env, viewer: ScheduleViewer, actor: Actor & { ip?: string | null }, eventId: string, date: Ymd, viewAll: boolean) {
  const { event } = await loadEventPage(env, viewer, eventId, viewAll);
  if (!event) return { ok: false as const, code: "event_not_found" as const };
  const hm = londonHm(event.startUtc);
  // 01:30 on the day the clocks go forward never happens: refused, not moved an hour.
  if (!londonTimeExists(date, hm)) return { ok: false as const, code: "time_skipped" as const };
  const startUtc = londonToUtc(date, hm);
  return createEvent(
    env,
    viewer,
    actor,
    {
      title: event.title,
      startUtc,
      endUtc: startUtc + (event.endUtc - event.startUtc),
      type: event.type,
      status: event.status,
      visibility: event.visibility,
      calendarId: event.calendarId,
      selectedUsers: event.visibility === "users" ? event.shares : [],
      rrule: null,
    },
    viewAll,
  );
}
