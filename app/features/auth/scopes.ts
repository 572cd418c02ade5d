/**
 * Scopes: the platform's own, plus whatever features register. Platform auth imports no
 * feature; a composition root (app/scopes.ts) registers each feature's scopes at run time and
 * adds them to the `Scope` type by declaration merging on `RegisteredScopes`.
 */

import type { AuditAction } from "~/features/platform";

/** The platform's scopes. An entry ending in '.*' stands for its whole family ('files.upload'). */
export const PLATFORM_SCOPES = [
  "tenant.view_settings",
  "tenant.edit_settings",
  "users.view",
  "users.manage",
  "users.scrub_pii",
  // schedule.* (calendar), chat.*, docs.* and notes.*: reserved for modules not built yet. No page asks
  // for them and the module catalogue does not offer those modules; the names stay so that default
  // and stored role bundles, which already grant them, remain valid.
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
  // Platform administration, on the bare domain only.
  "system.superadmin",
  "system.tenants.create",
  "system.tenants.modules",
] as const;

type Family<S extends string> = S extends `${infer P}.*` ? `${P}.${string}` : S;
export type PlatformScope = Family<(typeof PLATFORM_SCOPES)[number]>;

/**
 * Every scope name the code may ask for, by owner. Features add an entry from the composition
 * root: `declare module "~/features/auth/scopes" { interface RegisteredScopes { cis: CisScope } }`.
 * (An interface, not a type, so that it can be merged into.)
 */
export interface RegisteredScopes {
  platform: PlatformScope;
}
export type Scope = RegisteredScopes[keyof RegisteredScopes];

export type ScopeRegistration = {
  /** Every scope of the feature starts with it, e.g. 'cis.'. */
  prefix: string;
  scopes: readonly string[];
  /** The feature's own implications (coarse scopes granting fine ones), beyond exact and wildcard matches. */
  grants?: (held: readonly string[], wanted: string) => boolean;
  /** The audit action for a refusal of one of its scopes; 'auth.scope.denied' otherwise. */
  deniedAuditAction?: AuditAction;
};

export type ScopeRegistry = ReturnType<typeof createScopeRegistry>;

/** A registry knowing the platform's scopes; features register theirs. */
export function createScopeRegistry() {
  const features = new Map<string, ScopeRegistration>();
  const inList = (list: readonly string[], wanted: string) => list.some((s) => s === wanted || (s.endsWith(".*") && wanted.startsWith(s.slice(0, -1))));
  const featureOf = (wanted: string) => [...features.values()].find((f) => wanted.startsWith(f.prefix));

  return {
    /** Registering the same prefix again replaces it (a module evaluated twice is harmless). */
    register(registration: ScopeRegistration): void {
      const stray = registration.scopes.filter((s) => !s.startsWith(registration.prefix));
      if (stray.length) throw new Error(`Scopes outside ${registration.prefix}: ${stray.join(", ")}`);
      if (inList(PLATFORM_SCOPES, registration.prefix)) throw new Error(`${registration.prefix} belongs to the platform`);
      features.set(registration.prefix, registration);
    },

    /**
     * Does a set of held scopes grant the wanted one? Only a known scope (the platform's, or a
     * registered feature's) can be granted: exactly, by a wildcard ('files.*', 'cis.*', '*'),
     * or by the owning feature's implications. A scope of a feature nobody registered is
     * refused, so a missing registration fails closed.
     */
    grants(held: readonly string[], wanted: string): boolean {
      const feature = featureOf(wanted);
      if (feature ? !inList(feature.scopes, wanted) : !inList(PLATFORM_SCOPES, wanted)) return false;
      for (const scope of held) {
        if (scope === wanted || scope === "*") return true;
        if (scope.endsWith(".*") && wanted.startsWith(scope.slice(0, -1))) return true;
      }
      return feature?.grants?.(held, wanted) ?? false;
    },

    deniedAuditAction(wanted: string): AuditAction {
      return featureOf(wanted)?.deniedAuditAction ?? "auth.scope.denied";
    },
  };
}

/** The application's registry, filled by the composition root (app/scopes.ts). */
const registry = createScopeRegistry();

export function registerScopes(registration: ScopeRegistration): void {
  registry.register(registration);
}

/** For code that holds a scope list rather than a user (say, every member of a bundle). */
export function scopeGrants(held: readonly string[], wanted: Scope): boolean {
  return registry.grants(held, wanted);
}

export function deniedAuditAction(wanted: Scope): AuditAction {
  return registry.deniedAuditAction(wanted);
}

export type ScopeHolder = { tenantId: string | null; scopes: readonly string[] } | null | undefined;

/** For the UI and the server alike. Without a tenant only 'system.' scopes can pass. */
export function can(user: ScopeHolder, scope: Scope): boolean {
  if (!user) return false;
  if (!user.tenantId && !scope.startsWith("system.")) return false;
  return scopeGrants(user.scopes, scope);
}
