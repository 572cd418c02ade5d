import { and, asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { modules, tenantModules, tenants, type TenantBranding } from "~/db/schema";

export type EnabledModule = { id: string; label: string; route: string; icon: string; config: Record<string, unknown> };

export type TenantContextValue = {
  id: string;
  slug: string;
  name: string;
  branding: TenantBranding;
  requireTwoFactor: boolean;
  availableModules: string[] | null;
  modules: EnabledModule[];
};

export async function findTenantBySlug(env: Env, slug: string): Promise<TenantContextValue | null> {
  const db = getDb(env);
  const [tenant] = await db.select().from(tenants).where(eq(tenants.slug, slug)).limit(1);
  if (!tenant) return null;
  return { ...toValue(tenant), modules: await listEnabledModules(env, tenant.id, tenant.availableModules) };
}

function toValue(t: typeof tenants.$inferSelect): Omit<TenantContextValue, "modules"> {
  return {
    id: t.id,
    slug: t.slug,
    name: t.name,
    branding: t.branding ?? {},
    requireTwoFactor: t.requireTwoFactor,
    availableModules: t.availableModules ?? null,
  };
}

export async function listEnabledModules(env: Env, tenantId: string, available: string[] | null): Promise<EnabledModule[]> {
  const db = getDb(env);
  const rows = await db
    .select({
      id: modules.id,
      label: modules.label,
      route: modules.route,
      icon: modules.icon,
      defaultConfig: modules.defaultConfig,
      config: tenantModules.config,
    })
    .from(tenantModules)
    .innerJoin(modules, eq(modules.id, tenantModules.moduleId))
    .where(and(eq(tenantModules.tenantId, tenantId), eq(tenantModules.enabled, true)))
    .orderBy(asc(modules.sortOrder));
  // A module switched on but no longer in availableModules stays off.
  return rows
    .filter((r) => !available || available.includes(r.id))
    .map((r) => ({ id: r.id, label: r.label, route: r.route, icon: r.icon, config: { ...r.defaultConfig, ...r.config } }));
}

export async function listTenants(env: Env) {
  return getDb(env).select().from(tenants).orderBy(asc(tenants.slug));
}

export async function listModuleCatalogue(env: Env) {
  return getDb(env).select().from(modules).orderBy(asc(modules.sortOrder));
}

export async function listTenantModuleSettings(env: Env, tenantId: string) {
  return getDb(env).select().from(tenantModules).where(eq(tenantModules.tenantId, tenantId));
}
