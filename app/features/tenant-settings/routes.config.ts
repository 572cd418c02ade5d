import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** Tenant settings for the tenant's staff. Assembled by app/routes.ts; paths are relative to app/. */
export const tenantSettingsRoutes: RouteConfigEntry[] = [
  route("settings/branding", "features/tenant-settings/routes/branding.tsx"),
  route("settings/modules", "features/tenant-settings/routes/modules.tsx"),
];
