import { eq } from "drizzle-orm";
import type { z } from "zod";
import { getDb } from "~/db/client.server";
import { modules, roleBundles, tenantModules, tenants } from "~/db/schema";
import { auditInsert } from "~/features/platform/audit.server";
import type { createTenantSchema, toggleModuleSchema } from "./schemas";
import { newId } from "~/utils/ids";
import { DEFAULT_ROLE_BUNDLES } from "./default-bundles";

type Actor = { id: string; email: string; ip: string | null };

export type CreateTenantError = "slug_taken";
export type SetTenantModuleError = "tenant_not_found" | "module_not_found" | "module_unavailable";

function isSlugViolation(err: unknown): boolean {
  const text = `${err instanceof Error ? err.message : String(err)} ${err instanceof Error && err.cause instanceof Error ? err.cause.message : ""}`;
  return /UNIQUE constraint failed/i.test(text) && /tenants\.slug|tenants_slug_unique/i.test(text);
}

export async function createTenant(
  env: Env,
  input: z.infer<typeof createTenantSchema>,
  actor: Actor,
): Promise<{ ok: true; id: string } | { ok: false; code: CreateTenantError }> {
  const db = getDb(env);
  const [existing] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.slug, input.slug)).limit(1);
  if (existing) return { ok: false, code: "slug_taken" };
  const id = newId();
  const now = Date.now();
  const catalogue = await db.select({ id: modules.id }).from(modules);
  // Tenant, its module rows, role bundles and the audit entry land together or not at all.
  try {
    await db.batch([
      db.insert(tenants).values({ id, slug: input.slug, name: input.name, branding: {}, availableModules: null, createdAt: now, updatedAt: now }),
      ...catalogue.map((m) => db.insert(tenantModules).values({ tenantId: id, moduleId: m.id, enabled: false, config: {}, updatedAt: now })),
      ...Object.entries(DEFAULT_ROLE_BUNDLES).map(([name, scopes]) => db.insert(roleBundles).values({ tenantId: id, name, scopes, updatedAt: now })),
      auditInsert(db, {
        tenantId: null,
        action: "superadmin.tenant.created",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "tenant",
        targetId: id,
        payload: { slug: input.slug, name: input.name },
        ip: actor.ip,
      }),
    ]);
  } catch (err) {
    // Two creations racing past the check above meet the unique index; the loser's batch is refused whole.
    if (isSlugViolation(err)) return { ok: false, code: "slug_taken" };
    throw err;
  }
  return { ok: true, id };
}

export async function setTenantModule(
  env: Env,
  { tenantId, moduleId, enabled }: z.infer<typeof toggleModuleSchema>,
  actor: Actor,
): Promise<{ ok: true } | { ok: false; code: SetTenantModuleError }> {
  const db = getDb(env);
  const [tenant] = await db.select().from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!tenant) return { ok: false, code: "tenant_not_found" };
  const [mod] = await db.select({ id: modules.id }).from(modules).where(eq(modules.id, moduleId)).limit(1);
  if (!mod) return { ok: false, code: "module_not_found" };
  if (enabled && tenant.availableModules && !tenant.availableModules.includes(moduleId)) return { ok: false, code: "module_unavailable" };
  const now = Date.now();
  await db.batch([
    db
      .insert(tenantModules)
      .values({ tenantId, moduleId, enabled, config: {}, updatedAt: now })
      .onConflictDoUpdate({ target: [tenantModules.tenantId, tenantModules.moduleId], set: { enabled, updatedAt: now } }),
    auditInsert(db, {
      tenantId: null,
      action: enabled ? "superadmin.module.enabled" : "superadmin.module.disabled",
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: "tenant",
      targetId: tenantId,
      payload: { moduleId },
      ip: actor.ip,
    }),
  ]);
  return { ok: true };
}

export async function listTenantsWithModules(env: Env) {
  const db = getDb(env);
  const [allTenants, settings, catalogue] = await Promise.all([
    db.select().from(tenants).orderBy(tenants.slug),
    db.select().from(tenantModules),
    db.select().from(modules).orderBy(modules.sortOrder),
  ]);
  return allTenants.map((t) => ({
    id: t.id,
    slug: t.slug,
    name: t.name,
    createdAt: t.createdAt,
    modules: catalogue.map((m) => ({
      id: m.id,
      label: m.label,
      available: !t.availableModules || t.availableModules.includes(m.id),
      enabled: settings.some((s) => s.tenantId === t.id && s.moduleId === m.id && s.enabled),
    })),
  }));
}
