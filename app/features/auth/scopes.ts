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
  // docs.*: reserved for a module not built yet. No page asks
  // for them and the module catalogue does not offer that module; the names stay so that default
  // and stored role bundles, which already grant them, remain valid.
  "files.*",
  "billing.portal_access",
  "branding.edit",
  "modules.edit",
  "docs.view",
  "docs.edit",
  "docs.manage",
  // Platform administration, on the bare domain only.
  "system.superadmin",
  "system.tenants.create",
  "system.tenants.modules",
] as const;

/** What an administrator reads beside a scope: a short name and one line on what it lets its holder do. */
export type ScopeInfo = { name: string; description: string };

/**
 * The members of the platform's family 'files.*' that role bundles grant
 * one by one. A family entry grants any name in it; these are the ones with a meaning.
 */
export const PLATFORM_FAMILY_SCOPES = [
  "files.view",
  "files.upload",
  "files.delete",
  "files.share",
  "files.folders.create",
  "files.folders.manage",
  "files.manage_all",
  "files.signatures.view",
  "files.signatures.create",
  "files.signatures.sign",
  "files.signatures.manage",
] as const;

const RESERVED = "Kept for a module not built yet; no page asks for it.";

/** The name and description of every platform scope and family member, shown on role permission lists. */
export const PLATFORM_SCOPE_INFO: Readonly<Record<(typeof PLATFORM_SCOPES)[number] | (typeof PLATFORM_FAMILY_SCOPES)[number], ScopeInfo>> = {
  "tenant.view_settings": { name: "View workspace settings", description: "See the workspace's settings and its audit log." },
  "tenant.edit_settings": { name: "Change workspace settings", description: "Edit the workspace's settings." },
  "users.view": { name: "View team", description: "See the workspace's members and their roles." },
  "users.manage": { name: "Manage team", description: "Invite members, change their roles, disable them and send password resets." },
  "users.scrub_pii": { name: "Erase members' personal data", description: "Permanently remove a former member's name and e-mail address." },
  "files.*": { name: "Files (everything)", description: "Every files and e-signature permission, including everyone's private files." },
  "billing.portal_access": { name: "Billing", description: "Open the billing portal; no page asks for it yet." },
  "branding.edit": { name: "Change branding", description: "Set the workspace's logo, colours and name." },
  "modules.edit": { name: "Switch modules on and off", description: "Choose which modules the workspace uses." },
  "docs.view": { name: "View documents", description: RESERVED },
  "docs.edit": { name: "Edit documents", description: RESERVED },
  "docs.manage": { name: "Manage documents", description: RESERVED },
  "system.superadmin": { name: "Platform administrator", description: "Use the platform console: every workspace, its modules and its audit." },
  "system.tenants.create": { name: "Create workspaces", description: "Create new workspaces from the platform console." },
  "system.tenants.modules": { name: "Offer modules to workspaces", description: "Choose which modules each workspace may switch on." },
  "files.view": { name: "View files", description: "See their own files and the files shared with them." },
  "files.upload": { name: "Upload files", description: "Upload files and new versions of them." },
  "files.delete": { name: "Delete files", description: "Delete files they can see." },
  "files.share": { name: "Share files", description: "Share their files with the rest of the workspace." },
  "files.folders.create": { name: "Create folders", description: "Create folders for files." },
  "files.folders.manage": { name: "Manage folders", description: "Rename, move and delete folders." },
  "files.manage_all": { name: "See everyone's files", description: "Read and manage every member's files, private ones included." },
  "files.signatures.view": { name: "View signature requests", description: "See the signature requests they sent or were sent." },
  "files.signatures.create": { name: "Request signatures", description: "Ask people to sign a document." },
  "files.signatures.sign": { name: "Sign documents", description: "Sign or decline documents they are asked to sign." },
  "files.signatures.manage": { name: "Manage all signature requests", description: "See and handle every signature request in the workspace." },
};

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
  /** A name and description for every one of `scopes`: role permission lists show them, and registering without one fails. */
  info: Readonly<Record<string, ScopeInfo>>;
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
      const unnamed = registration.scopes.filter((s) => !hasInfo(registration.info, s));
      if (unnamed.length) throw new Error(`Scopes without a name and description: ${unnamed.join(", ")}`);
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

    /** The name and description of a scope, or null for a name nobody registered. */
    info(scope: string): ScopeInfo | null {
      const feature = featureOf(scope);
      const table: Readonly<Record<string, ScopeInfo>> = feature ? feature.info : PLATFORM_SCOPE_INFO;
      return hasInfo(table, scope) ? table[scope]! : null;
    },

    /** Every scope name known: the platform's (families and their members) and each registered feature's. */
    known(): string[] {
      return [...PLATFORM_SCOPES, ...PLATFORM_FAMILY_SCOPES, ...[...features.values()].flatMap((f) => f.scopes)];
    },
  };
}

function hasInfo(table: Readonly<Record<string, ScopeInfo>>, scope: string): boolean {
  const info = Object.hasOwn(table, scope) ? table[scope] : undefined;
  return !!info && info.name.trim() !== "" && info.description.trim() !== "";
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

/** A scope as a role permission list shows it: its name and description, the id in small print beneath. */
export function scopeInfo(scope: string): ScopeInfo | null {
  return registry.info(scope);
}

/** Every scope name the application knows (for the completeness test and administrators' lists). */
export function knownScopes(): string[] {
  return registry.known();
}

export type ScopeHolder = { tenantId: string | null; scopes: readonly string[] } | null | undefined;

/** For the UI and the server alike. Without a tenant only 'system.' scopes can pass. */
export function can(user: ScopeHolder, scope: Scope): boolean {
  if (!user) return false;
  if (!user.tenantId && !scope.startsWith("system.")) return false;
  return scopeGrants(user.scopes, scope);
}
