import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** The calendar, under /schedule. Assembled by app/routes.ts; paths are relative to app/. */
export const scheduleRoutes: RouteConfigEntry[] = [
  route("schedule", "features/schedule/routes/view.tsx"),
  route("schedule/calendars", "features/schedule/routes/calendars.tsx"),
  route("schedule/subscribe", "features/schedule/routes/subscribe.tsx"),
  route("schedule/feed/:token", "features/schedule/routes/feed.tsx"),
  route("schedule/new", "features/schedule/routes/event.tsx", { id: "schedule-new" }),
  route("schedule/:id", "features/schedule/routes/event.tsx", { id: "schedule-event" }),
  // Teams and sites, with the workspace's settings.
  route("settings/teams", "features/schedule/routes/groups.tsx"),
];
