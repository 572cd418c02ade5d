import { and, eq } from "drizzle-orm";
import { dbFor, globalDb } from "~/db/client.server";
import { forTenant } from "~/db/tenancy";
import { modules, tenantModules, tenants, type TenantBranding } from "~/db/schema";
import type { ActorAt } from "~/features/auth";
import { auditInsert } from "~/features/platform/index.server";
import { hexToHsl } from "~/features/platform";
import { isOfferedModule } from "~/features/platform";
import type { BrandingInput } from "./schemas";
import type { Result } from "~/utils/result";
import { IMAGE_CONTENT_TYPES, imageKind } from "~/utils/image-kind";
import { newId } from "~/utils/ids";
import { brandingPrefix, LOGO_MAX_BYTES, type LogoErrorCode } from "./logo";

export type SetModuleError = "module_not_found" | "module_unavailable";

/**
 * Saves the tenant's branding choices over what it had (other branding keys are kept) with its
 * audit entry in one batch. The accent is stored as given and as the HSL the theme uses.
 */
export async function saveBranding(env: Env, tenantId: string, current: TenantBranding, input: BrandingInput, actor: ActorAt): Promise<void> {
  const accentHsl = hexToHsl(input.accentColor);
  if (!accentHsl) throw new Error("saveBranding: accent colour not validated");
  // A blank address removes it (undefined leaves the key out of the stored JSON).
  const next: TenantBranding = { ...current, ...input, address: input.address || undefined, accentColor: input.accentColor.toUpperCase(), accentHsl };
  await writeBranding(env, tenantId, next, actor, {
    accentColor: next.accentColor,
    radius: input.radius,
    appearance: input.appearance,
    fontFamily: input.fontFamily,
    address: Boolean(next.address),
  });
}

/**
 * Stores a new logo for documents: the file in R2 under the tenant's branding prefix (a new key
 * each time, so a statement frozen with the old one still finds it), then the branding pointing at
 * it with its audit entry in one batch. The bytes must be a PNG or JPEG by their signature and no
 * larger than LOGO_MAX_BYTES; the declared type and name are not trusted.
 */
export async function saveLogo(env: Env, tenantId: string, current: TenantBranding, bytes: Uint8Array, actor: ActorAt): Promise<Result<void, LogoErrorCode>> {
  if (bytes.byteLength === 0) return { ok: false, code: "logo_missing" };
  if (bytes.byteLength > LOGO_MAX_BYTES) return { ok: false, code: "logo_too_large" };
  const kind = imageKind(bytes);
  if (!kind) return { ok: false, code: "logo_type" };
  const type = IMAGE_CONTENT_TYPES[kind];
  const key = `${brandingPrefix(tenantId)}logo-${newId()}.${kind === "png" ? "png" : "jpg"}`;
  await env.FILES.put(key, bytes, { httpMetadata: { contentType: type }, customMetadata: { tenantId } });
  await writeBranding(env, tenantId, { ...current, logo: { key, type, bytes: bytes.byteLength } }, actor, { logo: "uploaded", bytes: bytes.byteLength });
  return { ok: true };
}

/** Takes the logo off documents from now on; the file stays for statements already frozen with it. */
export async function removeLogo(env: Env, tenantId: string, current: TenantBranding, actor: ActorAt): Promise<void> {
  const { logo: _logo, ...rest } = current;
  await writeBranding(env, tenantId, rest, actor, { logo: "removed" });
}

/**
 * The tenant's row and its audit entry in one batch in the tenant's database; a tenant on another
 * shard then has the global row brought in step (the console reads that one).
 */
async function writeBranding(env: Env, tenantId: string, next: TenantBranding, actor: ActorAt, payload: Record<string, unknown>): Promise<void> {
  const db = dbFor(env, tenantId);
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
        payload,
        ip: actor.ip,
      },
      now,
    ),
  ]);
  const global = globalDb(env);
  if (global !== db) await global.update(tenants).set({ branding: next, updatedAt: now }).where(eq(tenants.id, tenantId));
}

/** The catalogue with this tenant's switches, in one D1 query; only modules the code offers. */
export async function tenantModuleSettings(env: Env, tenantId: string) {
  const rows = await dbFor(env, tenantId)
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
  const db = dbFor(env, tenantId);
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
