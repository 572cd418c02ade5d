import { CALENDAR_TYPES, EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES } from "~/db/enums";

/** What the calendar's pages list in their controls (client-safe: no validation library). */
export { CALENDAR_TYPES, EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES };

export const CALENDAR_COLOURS = ["#3B82F6", "#8B5CF6", "#EC4899", "#F59E0B", "#EF4444", "#10B981", "#6366F1", "#64748B"] as const;

/** Teams (crews, gangs) and sites (jobs, depots): a name and the people in it. A person may be in several of each. */
export const GROUP_KINDS = ["team", "site"] as const;
export type GroupKind = (typeof GROUP_KINDS)[number];
