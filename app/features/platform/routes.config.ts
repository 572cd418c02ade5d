import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** The platform's own page: the development mailbox. Assembled by app/routes.ts; paths are relative to app/. */
export const platformRoutes: RouteConfigEntry[] = [route("dev/mailbox", "features/platform/routes/dev-mailbox.tsx")];
