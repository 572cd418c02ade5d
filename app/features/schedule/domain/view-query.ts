import { EVENT_TYPES, SCHEDULE_VIEWS, type EventType, type ScheduleView } from "~/db/enums";
import { isYmd, todayYmd, type Ymd } from "./time";

export type ViewQuery = {
  /** null when the address names none: the person's last view is used. */
  view: ScheduleView | null;
  date: Ymd;
  cal: string | null;
  type: EventType | null;
  user: string | null;
  team: string | null;
  /** Day view: working hours (9-5) or the whole day. */
  hours: "9-5" | "24h";
  /** An event held for pasting (its id). */
  copy: string | null;
  /** The User filter's search: part of a person's name (the list names those who match). */
  who: string | null;
};

const ID = /^[A-Za-z0-9_-]{1,64}$/;
const id = (v: string | null) => (v && ID.test(v) ? v : null);

/** The calendar's address, read leniently: anything unknown falls back to its default. */
export function parseViewQuery(params: URLSearchParams, now = Date.now()): ViewQuery {
  const view = params.get("view");
  const date = params.get("date") ?? "";
  const type = params.get("type");
  return {
    view: (SCHEDULE_VIEWS as readonly string[]).includes(view ?? "") ? (view as ScheduleView) : null,
    date: isYmd(date) ? date : todayYmd(now),
    cal: id(params.get("cal")),
    type: (EVENT_TYPES as readonly string[]).includes(type ?? "") ? (type as EventType) : null,
    user: id(params.get("user")),
    team: id(params.get("team")),
    hours: params.get("hours") === "24h" ? "24h" : "9-5",
    copy: id(params.get("copy")),
    who: params.get("who")?.trim().slice(0, 60) || null,
  };
}

/** The address of the calendar with some of its parameters changed (null removes one). */
export function viewHref(q: ViewQuery & { view: ScheduleView }, changes: Partial<Record<keyof ViewQuery, string | null>>): string {
  const merged: Record<string, string | null> = {
    view: q.view,
    date: q.date,
    cal: q.cal,
    type: q.type,
    user: q.user,
    team: q.team,
    hours: q.hours === "24h" ? "24h" : null,
    copy: q.copy,
    // The search is a step of the filter form: links of the view leave it behind.
    who: null,
    ...changes,
  };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) if (v) params.set(k, v);
  return `/schedule?${params.toString()}`;
}
