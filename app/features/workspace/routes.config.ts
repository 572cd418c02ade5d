import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** A signed-in person's own workspace pages: welcome, notifications, the audit log. Assembled by app/routes.ts; paths are relative to app/. */
export const workspaceRoutes: RouteConfigEntry[] = [
  route("welcome", "features/workspace/routes/welcome.tsx"),
  route("settings/audit", "features/workspace/routes/audit-log.tsx"),
  route("notifications", "features/workspace/routes/notifications.tsx"),
];
