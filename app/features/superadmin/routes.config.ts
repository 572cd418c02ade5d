import { type RouteConfigEntry, index, prefix, route } from "@react-router/dev/routes";

/** The platform super-admin console (bare domain). Assembled by app/routes.ts; paths are relative to app/. */
export const superadminRoutes: RouteConfigEntry[] = [
  ...prefix("superadmin", [index("features/superadmin/routes/console.tsx"), route("audit", "features/superadmin/routes/audit.tsx")]),
];
