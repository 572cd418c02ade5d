import { createContext } from "react-router";
import type { Role, ThemePreference, UserStatus } from "./db/enums";
import type { TenantContextValue } from "./features/platform/index.server";

export type CloudflareContext = {
  env: Env;
  ctx: ExecutionContext;
  /** Per-request CSP nonce for React Router's inline scripts. */
  nonce: string;
};

// Set by workers/app.ts before the router runs.
export const cloudflareContext = createContext<CloudflareContext>();

/**
 * How a page's inline scripts are allowed. workers/app.ts sets one (outside development) and reads
 * it when the response is done; entry.server.tsx fills `hashes` when it renders a page that a
 * shared cache may keep, which then carries no nonce and is allowed by script hashes instead.
 */
export type ScriptPolicy = { hashes: string[] | null };
export const scriptPolicyContext = createContext<ScriptPolicy | null>(null);

// Set by the tenant middleware in root.tsx: null on the bare (public) domain.
export const tenantContext = createContext<TenantContextValue | null>(null);

export type SessionUser = {
  kind: "staff" | "platform";
  id: string;
  /** null for platform super-admins, who act on the bare domain only. */
  tenantId: string | null;
  email: string;
  displayName: string;
  role: Role | "superadmin";
  /** The role bundle as it stands now: read on every request, never cached. */
  scopes: string[];
  themePreference: ThemePreference;
  userStatus: UserStatus;
  sessionIdHash: string;
  /** Unread notifications, read with the session (counting stops at a cap); 0 for platform sessions. */
  unreadNotifications: number;
  /** Counts features show beside their module's link (module id to count), read with the session. */
  moduleCounts: Readonly<Record<string, number>>;
};

// Set by the auth middleware in root.tsx when a valid session cookie is present.
export const userContext = createContext<SessionUser | null>(null);
