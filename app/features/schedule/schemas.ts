import { z } from "zod";
import { CALENDAR_COLOURS, CALENDAR_TYPES, EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES } from "./domain/constants";
import { EVENT_TOO_LONG, MAX_EVENT_MS } from "./domain/event-length";
import { REPEAT_FREQS, toRrule } from "./domain/recurrence";
import { isHm, isYmd, londonTimeExists, londonToUtc, skippedTimeMessage } from "./domain/time";

/** The event form's fields as the browser sends them (every one a string; people and weekdays repeat). */
export type EventFormValues = {
  title: string;
  startDate: string;
  startTime: string;
  endDate: string;
  endTime: string;
  type: string;
  status: string;
  visibility: string;
  calendarId: string;
  users: string[];
  repeat: string;
  repeatDays: string[];
  repeatUntil: string;
  repeatCount: string;
};

export type EventFormErrors = Partial<Record<keyof EventFormValues, string>>;

export function eventFormValues(form: FormData): EventFormValues {
  const s = (k: string) => String(form.get(k) ?? "").trim();
  return {
    title: s("title"),
    startDate: s("startDate"),
    startTime: s("startTime"),
    endDate: s("endDate"),
    endTime: s("endTime"),
    type: s("type"),
    status: s("status"),
    visibility: s("visibility"),
    calendarId: s("calendarId"),
    users: form.getAll("users").map(String),
    repeat: s("repeat") || "none",
    repeatDays: form.getAll("repeatDays").map(String),
    repeatUntil: s("repeatUntil"),
    repeatCount: s("repeatCount"),
  };
}

const fields = z.object({
  title: z.string().min(1, "Title is required").max(200, "Use at most 200 characters"),
  type: z.enum(EVENT_TYPES, { message: "Choose a type" }),
  status: z.enum(EVENT_STATUSES, { message: "Choose a status" }),
  visibility: z.enum(EVENT_VISIBILITIES, { message: "Choose who can see it" }),
  repeat: z.enum(["none", ...REPEAT_FREQS], { message: "Choose how it repeats" }),
});

/** Checks the event form; times are London wall-clock times, stored as UTC instants. */
export function parseEventForm(v: EventFormValues) {
  const errors: EventFormErrors = {};
  const base = fields.safeParse(v);
  if (!base.success) for (const issue of base.error.issues) errors[issue.path[0] as keyof EventFormValues] ??= issue.message;
  if (!isYmd(v.startDate)) errors.startDate = "Enter the start date";
  if (!isHm(v.startTime)) errors.startTime = "Enter the start time";
  if (!isYmd(v.endDate)) errors.endDate = "Enter the end date";
  if (!isHm(v.endTime)) errors.endTime = "Enter the end time";
  for (const [date, time] of [
    ["startDate", "startTime"],
    ["endDate", "endTime"],
  ] as const) {
    if (!errors[date] && !errors[time] && !londonTimeExists(v[date], v[time])) errors[time] = skippedTimeMessage(v[date], v[time]);
  }
  let startUtc = 0;
  let endUtc = 0;
  if (!errors.startDate && !errors.startTime && !errors.endDate && !errors.endTime) {
    startUtc = londonToUtc(v.startDate, v.startTime);
    endUtc = londonToUtc(v.endDate, v.endTime);
    if (endUtc <= startUtc) errors.endTime = "The end must be after the start";
    else if (endUtc - startUtc > MAX_EVENT_MS) errors.endDate = EVENT_TOO_LONG;
  }
  if (v.visibility === "users" && v.users.length === 0) errors.users = "Choose at least one person";
  const days = v.repeatDays.map(Number);
  if (days.some((d) => !Number.isInteger(d) || d < 0 || d > 6)) errors.repeatDays = "Choose weekdays from the list";
  if (v.repeatUntil && !isYmd(v.repeatUntil)) errors.repeatUntil = "Enter a date";
  else if (v.repeatUntil && isYmd(v.startDate) && v.repeatUntil < v.startDate) errors.repeatUntil = "The last date cannot be before the start";
  const count = v.repeatCount ? Number(v.repeatCount) : null;
  if (count !== null && (!Number.isInteger(count) || count < 1 || count > 500)) errors.repeatCount = "Enter a whole number from 1 to 500";
  if (v.repeatUntil && v.repeatCount) errors.repeatCount = "Give an end date or a number of times, not both";
  if (!base.success || Object.keys(errors).length) return { ok: false as const, errors };
  const rrule =
    base.data.repeat === "none"
      ? null
      : toRrule({ freq: base.data.repeat, interval: 1, weekdays: base.data.repeat === "weekly" ? days : [], until: v.repeatUntil || null, count });
  return {
    ok: true as const,
    input: {
      title: base.data.title,
      startUtc,
      endUtc,
      type: base.data.type,
      status: base.data.status,
      visibility: base.data.visibility,
      calendarId: v.calendarId || null,
      selectedUsers: base.data.visibility === "users" ? [...new Set(v.users)] : [],
      rrule,
    },
  };
}

export type CalendarFormValues = { name: string; color: string; type: string; members: string[] };
export type CalendarFormErrors = Partial<Record<keyof CalendarFormValues, string>>;

const calendarFields = z.object({
  name: z.string().trim().min(1, "Name is required").max(80, "Use at most 80 characters"),
  color: z.enum(CALENDAR_COLOURS, { message: "Choose a colour from the list" }),
  type: z.enum(CALENDAR_TYPES, { message: "Choose a type" }),
});

export function calendarFormValues(form: FormData): CalendarFormValues {
  return {
    name: String(form.get("name") ?? "").trim(),
    color: String(form.get("color") ?? ""),
    type: String(form.get("type") ?? ""),
    members: form.getAll("members").map(String),
  };
}

export function parseCalendarForm(v: CalendarFormValues) {
  const parsed = calendarFields.safeParse(v);
  if (!parsed.success) {
    const errors: CalendarFormErrors = {};
    for (const issue of parsed.error.issues) errors[issue.path[0] as keyof CalendarFormValues] ??= issue.message;
    return { ok: false as const, errors };
  }
  return { ok: true as const, input: { ...parsed.data, members: [...new Set(v.members)] } };
}
