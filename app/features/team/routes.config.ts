import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** Team administration and one's own account. Assembled by app/routes.ts; paths are relative to app/. */
export const teamRoutes: RouteConfigEntry[] = [
  route("settings/users", "features/team/routes/users.tsx"),
  route("account", "features/team/routes/account.tsx"),
  route("activate", "features/team/routes/activate.tsx"),
  route("reset-password", "features/team/routes/reset-password.tsx"),
];
