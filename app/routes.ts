import { type RouteConfig, route } from "@react-router/dev/routes";
import { authRoutes } from "./features/auth/routes.config";
import { cisRoutes } from "./features/cis/routes.config";
import { filesRoutes } from "./features/files/routes.config";
import { marketingRoutes } from "./features/marketing/routes.config";
import { notesRoutes } from "./features/notes/routes.config";
import { platformRoutes } from "./features/platform/routes.config";
import { portalRoutes } from "./features/portal/routes.config";
import { superadminRoutes } from "./features/superadmin/routes.config";
import { teamRoutes } from "./features/team/routes.config";
import { chatRoutes } from "./features/chat/routes.config";
import { tenantSettingsRoutes } from "./features/tenant-settings/routes.config";
import { workspaceRoutes } from "./features/workspace/routes.config";
import { scheduleRoutes } from "./features/schedule/routes.config";

// Config routing: every feature declares its routes in its own folder (routes.config.ts) and this
// file only assembles them. A new feature adds one line here.
export default [
  ...marketingRoutes,
  ...platformRoutes,
  ...workspaceRoutes,
  ...authRoutes,
  ...tenantSettingsRoutes,
  ...superadminRoutes,
  ...cisRoutes,
  ...filesRoutes,
  ...portalRoutes,
  ...teamRoutes,
  ...chatRoutes,
  ...notesRoutes,
  ...scheduleRoutes,
  // Last: anything no feature claims is the platform's 404 page.
  route("*", "features/platform/routes/not-found.tsx"),
] satisfies RouteConfig;
