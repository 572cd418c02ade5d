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
] as const;

export type ScheduleScope = (typeof SCHEDULE_SCOPES)[number];

export const SCHEDULE_SCOPE_INFO: Readonly<Record<ScheduleScope, ScopeInfo>> = {
  "schedule.view": { name: "View calendar", description: "See one's own and shared events." },
  "schedule.create": { name: "Create events", description: "Add events." },
  "schedule.edit": { name: "Edit events", description: "Change one's own events." },
  "schedule.delete": { name: "Delete events", description: "Delete one's own events." },
  "schedule.calendars.view_all": { name: "View all calendars", description: "List every calendar." },
  "schedule.calendars.manage": { name: "Manage calendars", description: "Run calendars; change any event." },
  "schedule.edit_team": { name: "Plan for teams", description: "Filter by team." },
};

/** The calendar's scopes, for the composition root (app/scopes.ts). */
export const SCHEDULE_SCOPE_REGISTRATION = {
  prefix: "schedule.",
  scopes: SCHEDULE_SCOPES,
  info: SCHEDULE_SCOPE_INFO,
} as const;
