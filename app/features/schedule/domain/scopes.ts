import type { ScopeInfo } from "~/features/auth";

/** Every calendar scope. */
export const SCHEDULE_SCOPES = [
  "schedule.view",
  "schedule.create",
  "schedule.edit",
  "schedule.delete",
  "schedule.calendars.view_all",
  "schedule.calendars.manage",
  "schedule.edit_team",
  "schedule.teams.manage",
] as const;

export type ScheduleScope = (typeof SCHEDULE_SCOPES)[number];

export const SCHEDULE_SCOPE_INFO: Readonly<Record<ScheduleScope, ScopeInfo>> = {
  "schedule.view": { name: "View calendar", description: "See the calendar: one's own events and those shared with one." },
  "schedule.create": { name: "Create events", description: "Add events to the calendar." },
  "schedule.edit": { name: "Edit events", description: "Change events one may see and created, or any one may see with Manage calendars." },
  "schedule.delete": { name: "Delete events", description: "Delete events one created (any one may see with Manage calendars)." },
  "schedule.calendars.view_all": {
    name: "View all calendars",
    description: "List every calendar of the workspace, not only those one is a member of.",
  },
  "schedule.calendars.manage": { name: "Manage calendars", description: "Create, edit and archive calendars and choose their members." },
  "schedule.edit_team": { name: "Plan for teams", description: "Filter the calendar by team and by person." },
  "schedule.teams.manage": { name: "Manage teams and sites", description: "Create teams and sites and choose who is in them." },
};

/** The calendar's scopes, for the composition root (app/scopes.ts). */
export const SCHEDULE_SCOPE_REGISTRATION = {
  prefix: "schedule.",
  scopes: SCHEDULE_SCOPES,
  info: SCHEDULE_SCOPE_INFO,
} as const;
