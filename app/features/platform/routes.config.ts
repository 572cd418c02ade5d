import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** The workspace shell's own pages: welcome, audit log, notifications, the dev mailbox. Assembled by app/routes.ts; paths are relative to app/. */
export const platformRoutes: RouteConfigEntry[] = [
  route("welcome", "features/platform/routes/welcome.tsx"),
  route("dev/mailbox", "features/platform/routes/dev-mailbox.tsx"),
  route("settings/audit", "features/platform/routes/audit-log.tsx"),
  route("notifications", "features/platform/routes/notifications.tsx"),
];
