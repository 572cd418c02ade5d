import { and, asc, eq } from "drizzle-orm";
import { dbFor, globalDb, type Db } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { forTenant } from "~/db/tenancy";
import { modules, tenantModules, tenants, type TenantBranding } from "~/db/schema";
import { isOfferedModule } from "./module-catalogue";

export type EnabledModule = { id: string; label: string; route: string; icon: string; config: Record<string, unknown> };

export type TenantContextValue = {
  id: string;
  slug: string;
  name: string;
  branding: TenantBranding;
  requireTwoFactor: boolean;
  availableModules: string[] | null;
  suspended: boolean;
  modules: EnabledModule[];
};

/**
 * The statements that load a tenant and its enabled modules by slug. Run them in a batch,
 * together with anything else the request needs, so a tenant page pays one round trip.
 */
export function tenantBySlugStatements(db: Db, slug: string) {
  return [tenantBySlug(db, { slug }), enabledModulesBySlug(db, { slug })] as const;
}

// Every tenant page asks for these two: built once per database, bound to the slug per request.
const tenantBySlug = preparedStatement((db, p: Placeholders<{ slug: string }>) => db.select().from(tenants).where(eq(tenants.slug, p.slug)).limit(1));
const enabledModulesBySlug = preparedStatement((db, p: Placeholders<{ slug: string }>) =>
  enabledModulesQuery(db)
    .innerJoin(tenants, eq(tenants.id, tenantModules.tenantId))
    .where(and(eq(tenants.slug, p.slug), eq(tenantModules.enabled, true))),
);

export function toTenantContext(tenantRows: (typeof tenants.$inferSelect)[], moduleRows: EnabledModuleRow[]): TenantContextValue | null {
  const [tenant] = tenantRows;
  if (!tenant) return null;
  return { ...toValue(tenant), modules: toEnabledModules(moduleRows, tenant.availableModules ?? null) };
}

function enabledModulesQuery(db: Db) {
  return db
    .select({
      id: modules.id,
      label: modules.label,
      route: modules.route,
      icon: modules.icon,
      defaultConfig: modules.defaultConfig,
      config: tenantModules.config,
      sortOrder: modules.sortOrder,
    })
    .from(tenantModules)
    .innerJoin(modules, eq(modules.id, tenantModules.moduleId))
    .$dynamic();
}

type EnabledModuleRow = Awaited<ReturnType<ReturnType<typeof enabledModulesQuery>["all"]>>[number];

function toEnabledModules(rows: EnabledModuleRow[], available: string[] | null): EnabledModule[] {
  // A module switched on but no longer in availableModules stays off, as does one the code no longer offers.
  return [...rows]
    .sort((a, b) => a.sortOrder - b.sortOrder)
    .filter((r) => isOfferedModule(r.id) && (!available || available.includes(r.id)))
    .map((r) => ({ id: r.id, label: r.label, route: r.route, icon: r.icon, config: { ...r.defaultConfig, ...r.config } }));
}

function toValue(t: typeof tenants.$inferSelect): Omit<TenantContextValue, "modules"> {
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    branding: t.branding ?? {},
    requireTwoFactor: t.requireTwoFactor,
    availableModules: t.availableModules ?? null,
    suspended: t.suspendedAt !== null,
  };
}

export async function listTenants(env: Env) {
  return globalDb(env).select().from(tenants).orderBy(asc(tenants.slug));
}

export async function listModuleCatalogue(env: Env) {
  const rows = await globalDb(env).select().from(modules).orderBy(asc(modules.sortOrder));
  return rows.filter((m) => isOfferedModule(m.id));
}

export async function listTenantModuleSettings(env: Env, tenantId: string) {
  return dbFor(env, tenantId).select().from(tenantModules).where(forTenant(tenantModules, tenantId));
}
