import { cisScopeGrants } from "~/features/cis/domain";

/**
 * Does a set of held scopes grant the wanted one? Exact match, wildcards ('files.*', '*'),
 * and the CIS module's coarse-to-fine implications (cis.md section 6).
 */
export function scopeGrants(held: readonly string[], wanted: string): boolean {
  for (const scope of held) {
    if (scope === wanted || scope === "*") return true;
    if (scope.endsWith(".*") && wanted.startsWith(scope.slice(0, -1))) return true;
  }
  if (wanted.startsWith("cis.")) return cisScopeGrants([...held], wanted);
  return false;
}

export type ScopeHolder = { tenantId: string | null; scopes: readonly string[] } | null | undefined;

/** For the UI and the server alike. Without a tenant only 'system.' scopes can pass. */
export function can(user: ScopeHolder, scope: string): boolean {
  if (!user) return false;
  if (!user.tenantId && !scope.startsWith("system.")) return false;
  return scopeGrants(user.scopes, scope);
}

export const PLATFORM_SCOPES = [
  "tenant.view_settings",
  "tenant.edit_settings",
  "users.view",
  "users.manage",
  "users.scrub_pii",
  "schedule.*",
  "files.*",
  "chat.*",
  "billing.portal_access",
  "branding.edit",
  "modules.edit",
  "docs.view",
  "docs.edit",
  "docs.manage",
  "notes.view",
  "notes.create",
  "notes.edit",
  "notes.delete",
  "notes.share",
  "notes.manage_all",
  "notes.folders.create",
  "notes.folders.manage",
] as const;
