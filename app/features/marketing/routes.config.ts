import { type RouteConfigEntry, index, route } from "@react-router/dev/routes";

/** The public site (bare domain). Assembled by app/routes.ts; paths are relative to app/. */
export const marketingRoutes: RouteConfigEntry[] = [
  index("features/marketing/routes/home.tsx"),
  route("vision", "features/marketing/routes/vision.tsx"),
  route("help", "features/marketing/routes/help.tsx"),
  route("terms", "features/marketing/routes/terms.tsx"),
  route("privacy", "features/marketing/routes/privacy.tsx"),
  route("start-a-project", "features/marketing/routes/start-a-project.tsx"),
];
