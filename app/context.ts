import { createContext } from "react-router";
import type { TenantContextValue } from "./features/platform/tenants.server";

export type CloudflareContext = {
  env: Env;
  ctx: ExecutionContext;
  /** Per-request CSP nonce for React Router's inline scripts. */
  nonce: string;
};

// Set by workers/app.ts before the router runs.
export const cloudflareContext = createContext<CloudflareContext>();

// Set by the tenant middleware in root.tsx: null on the bare (public) domain.
export const tenantContext = createContext<TenantContextValue | null>(null);

export type SessionUser = {
  kind: "staff" | "platform";
  id: string;
  /** null for platform super-admins, who act on the bare domain only. */
  tenantId: string | null;
  email: string;
  displayName: string;
  role: "standard" | "lead" | "manager" | "admin" | "superadmin";
  /** The role bundle as it stands now: read on every request, never cached. */
  scopes: string[];
  themePreference: "system" | "light" | "dark";
  userStatus: "active" | "busy" | "unavailable";
  sessionIdHash: string;
  /** Unread notifications, read with the session (counting stops at a cap); 0 for platform sessions. */
  unreadNotifications: number;
};

// Set by the auth middleware in root.tsx when a valid session cookie is present.
export const userContext = createContext<SessionUser | null>(null);
