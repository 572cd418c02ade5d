import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

// Config routing lets every feature keep its routes in its own folder.
export default [
  index("features/platform/routes/home.tsx"),
  route("welcome", "features/platform/routes/welcome.tsx"),
  route("preferences/theme", "features/platform/routes/theme.tsx"),
  route("dev/mailbox", "features/platform/routes/dev-mailbox.tsx"),
  route("settings/audit", "features/platform/routes/audit-log.tsx"),

  // Sign-in and sessions
  route("login", "features/auth/routes/login.tsx"),
  route("login/verify", "features/auth/routes/login-verify.tsx"),
  route("accept-session", "features/auth/routes/accept-session.tsx"),
  route("logout", "features/auth/routes/logout.tsx"),
  route("me/status", "features/auth/routes/me-status.tsx"),
  ...prefix("superadmin", [index("features/auth/routes/superadmin.tsx")]),

  route("*", "features/platform/routes/not-found.tsx"),
] satisfies RouteConfig;
