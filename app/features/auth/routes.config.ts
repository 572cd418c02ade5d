import { type RouteConfigEntry, route } from "@react-router/dev/routes";

/** Sign-in and sessions. Assembled by app/routes.ts; paths are relative to app/. */
export const authRoutes: RouteConfigEntry[] = [
  route("login", "features/auth/routes/login.tsx"),
  route("login/verify", "features/auth/routes/login-verify.tsx"),
  route("accept-session", "features/auth/routes/accept-session.tsx"),
  route("logout", "features/auth/routes/logout.tsx"),
  route("me/status", "features/auth/routes/me-status.tsx"),
  // The theme form in every page's user menu: the cookie, and the preference on the account.
  route("preferences/theme", "features/auth/routes/theme.tsx"),
];
