import type { SessionUser } from "~/context";
import { can } from "~/features/auth";
import type { ScheduleViewer } from "./visibility.server";

/** What the signed-in person may do in the calendar (the server checks each again). */
export function schedulePerms(user: SessionUser) {
  return {
    create: can(user, "schedule.create"),
    edit: can(user, "schedule.edit"),
    delete: can(user, "schedule.delete"),
    viewAllCalendars: can(user, "schedule.calendars.view_all"),
    manageCalendars: can(user, "schedule.calendars.manage"),
    editTeam: can(user, "schedule.edit_team"),
    // Teams and sites belong to the workspace settings.
    manageTeams: can(user, "tenant.edit_settings"),
  };
}
export type SchedulePerms = ReturnType<typeof schedulePerms>;

export function viewerOf(user: SessionUser, tenantId: string): ScheduleViewer {
  return { id: user.id, tenantId, role: user.role };
}
