import { MAX_EVENT_DAYS } from "./event-length";
import type { CalendarType, EventStatus, EventType, EventVisibility, ScheduleView } from "~/db/enums";

export const TYPE_LABELS: Record<EventType, string> = { shift: "Shift", task: "Task", delivery: "Delivery", training: "Training", meeting: "Meeting" };
export const STATUS_LABELS: Record<EventStatus, string> = { green: "On Track", amber: "At Risk", red: "Urgent" };
export const VISIBILITY_LABELS: Record<EventVisibility, string> = {
  private: "Only me",
  users: "Specific people",
  team: "My teams",
  site: "My sites",
  org: "Entire organisation",
};
export const CALENDAR_TYPE_LABELS: Record<CalendarType, string> = {
  personal: "Personal",
  team: "Team",
  project: "Project",
  resource: "Resource",
  public: "Public",
};
export const VIEW_LABELS: Record<ScheduleView, string> = { day: "Day", week: "Week", month: "Month", year: "Year" };

/** The messages of the calendar's toasts. */
export const SCHEDULE_TOASTS = {
  created: { title: "Event created", message: "Your event has been successfully created" },
  createFailed: { title: "Error", message: "Failed to create event. Please try again." },
  copied: { title: "Event copied", message: "Double-click on a day to paste this event" },
  pasted: { title: "Event pasted", message: "Event has been pasted to the selected date." },
} as const;

/** Why a paste changed nothing (a toast on the view), by the save's typed code. */
export const PASTE_REFUSALS = {
  event_too_long: `It lasts more than ${MAX_EVENT_DAYS} days, longer than an event may last: make it shorter or a series, then copy it again.`,
  calendar_not_found: "Its calendar is not open to you any more: copy an event of another calendar.",
  time_skipped: "It starts between 01:00 and 02:00, and on that day the clocks go forward from 01:00 to 02:00: paste it on another day.",
  person_not_found: "Someone it is shared with has left: open the event and choose who to share it with, then copy it again.",
} as const;
