import { and, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { modules, tenantModules, tenants, type TenantBranding } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { hexToHsl } from "~/features/platform";
import { isOfferedModule } from "~/features/platform";
import type { BrandingInput } from "./schemas";
import type { Result } from "~/utils/result";

export type SetModuleError = "module_not_found" | "module_unavailable";

/**
 * Saves the tenant's branding choices over what it had (other branding keys are kept) with its
 * audit entry in one batch. The accent is stored as given and as the HSL the theme uses.
 */
export async function saveBranding(env: Env, tenantId: string, current: TenantBranding, input: BrandingInput, actor: ActorAt): Promise<void> {
  const db = getDb(env);
  const accentHsl = hexToHsl(input.accentColor);
  if (!accentHsl) throw new Error("saveBranding: accent colour not validated");
  const next: TenantBranding = { ...current, ...input, accentColor: input.accentColor.toUpperCase(), accentHsl };
  const now = Date.now();
  await db.batch([
    db.update(tenants).set({ branding: next, updatedAt: now }).where(eq(tenants.id, tenantId)),
    auditInsert(
      db,
      {
        tenantId,
        action: "tenant.branding.updated",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "tenant",
        targetId: tenantId,
        payload: { accentColor: next.accentColor, radius: input.radius, appearance: input.appearance, fontFamily: input.fontFamily },
        ip: actor.ip,
      },
      now,
    ),
  ]);
}

/** The catalogue with this tenant's switches, in one D1 query; only modules the code offers. */
export async function tenantModuleSettings(env: Env, tenantId: string) {
  const rows = await getDb(env)
    .select({ id: modules.id, label: modules.label, route: modules.route, enabled: tenantModules.enabled })
    .from(modules)
    .leftJoin(tenantModules, and(eq(tenantModules.moduleId, modules.id), forTenant(tenantModules, tenantId)))
    .orderBy(modules.sortOrder);
  return rows.filter((m) => isOfferedModule(m.id));
}

/** Switches one module for the tenant, only within its available modules, audited in the same batch. */
export async function setModuleEnabled(
  env: Env,
  tenantId: string,
  available: string[] | null,
  moduleId: string,
  enabled: boolean,
  actor: ActorAt,
): Promise<Result<{ label: string }, SetModuleError>> {
  // A module the code does not offer has no pages to switch on, whatever the database lists.
  if (!isOfferedModule(moduleId)) return { ok: false, code: "module_not_found" };
  const db = getDb(env);
  const [mod] = await db.select({ id: modules.id, label: modules.label }).from(modules).where(eq(modules.id, moduleId)).limit(1);
  if (!mod) return { ok: false, code: "module_not_found" };
  // Switching off is always allowed: a module withdrawn from the tenant may still be on.
  if (enabled && available && !available.includes(moduleId)) return { ok: false, code: "module_unavailable" };
  const now = Date.now();
  await db.batch([
    db
      .insert(tenantModules)
      .values({ tenantId, moduleId, enabled, config: {}, updatedAt: now })
      .onConflictDoUpdate({ target: [tenantModules.tenantId, tenantModules.moduleId], set: { enabled, updatedAt: now } }),
    auditInsert(
      db,
      {
        tenantId,
        action: enabled ? "tenant.module.enabled" : "tenant.module.disabled",
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: "module",
        targetId: moduleId,
        payload: { moduleId },
        ip: actor.ip,
      },
      now,
    ),
  ]);
  return { ok: true, label: mod.label };
}
