import { type RouteConfig, index, prefix, route } from "@react-router/dev/routes";

// Config routing lets every feature keep its routes in its own folder.
export default [
  index("features/platform/routes/home.tsx"),
  route("welcome", "features/platform/routes/welcome.tsx"),
  route("preferences/theme", "features/platform/routes/theme.tsx"),
  route("dev/mailbox", "features/platform/routes/dev-mailbox.tsx"),


  route("*", "features/platform/routes/not-found.tsx"),
] satisfies RouteConfig;
