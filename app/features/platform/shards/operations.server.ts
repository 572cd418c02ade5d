import { and, eq, isNull } from "drizzle-orm";
import { globalDb, HOME_SHARD, loadShardRoutes, shardDb, shardOf } from "~/db/client.server";
import { modules, tenants } from "~/db/schema";
import { resumeParkedWork } from "../parked-work.server";
import { compareDumps, deleteTenantRows, exportTenant, importTenant, type TenantDump } from "./tenant-data.server";
import type { Result } from "~/utils/result";

export type MoveTenantError = "tenant_not_found" | "same_shard" | "copy_differs" | "route_changed";

export const MOVE_TENANT_MESSAGES: Record<MoveTenantError, string> = {
  tenant_not_found: "There is no such tenant.",
  same_shard: "The tenant already lives in that database.",
  copy_differs: "The copy in the new database does not match the original: the tenant stays where it was.",
  route_changed: "The tenant's route changed while it was being copied: the tenant stays where it was.",
};

export type MoveReport = { from: string; to: string; rows: number; counts: Record<string, number> };

/**
 * Moves one tenant's rows to another shard (ADR 0064): suspend it (so no request, job or e-mail
 * writes while it moves), copy every tenant table, compare the copy with the original, switch its
 * `shard` in one conditional write on the global row, delete the old rows, and reinstate it if it
 * was active. A failed copy or comparison removes the partial copy and leaves the tenant where it
 * was (still suspended if it was suspended before).
 */
export async function moveTenant(env: Env, tenantId: string, to: string, now = Date.now()): Promise<Result<MoveReport, MoveTenantError>> {
  const global = globalDb(env);
  await loadShardRoutes(env, { force: true });
  const [row] = await global.select({ suspendedAt: tenants.suspendedAt, shard: tenants.shard }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) return { ok: false, code: "tenant_not_found" };
  const from = shardOf(env, tenantId);
  const target = shardDb(env, to);
  if (from === to) return { ok: false, code: "same_shard" };
  const source = shardDb(env, from);
  const wasActive = row.suspendedAt === null;
  if (wasActive) await setSuspendedOn([global, source], tenantId, now);
  const original = await exportTenant(source.$client, tenantId, now);
  const copied = await copyInto(global, target, original);
  if (!copied.ok) return finishFailed(env, [global, source], tenantId, wasActive, target.$client, copied.code);
  // One write: the route, only while it still names the old shard.
  const flipped = await global
    .update(tenants)
    .set({ shard: to === HOME_SHARD ? null : to })
    .where(and(eq(tenants.id, tenantId), row.shard === null ? isNull(tenants.shard) : eq(tenants.shard, row.shard)))
    .returning({ id: tenants.id });
  if (flipped.length === 0) return finishFailed(env, [global, source], tenantId, wasActive, target.$client, "route_changed");
  await deleteTenantRows(source.$client, tenantId, { keepTenantRow: from === HOME_SHARD });
  await loadShardRoutes(env, { force: true });
  if (wasActive) await reinstate(env, [global, target], tenantId);
  return { ok: true, from, to, rows: copied.rows, counts: copied.counts };
}

type AnyDb = ReturnType<typeof globalDb>;

/** The module catalogue the tenant's switches point at, then the tenant's rows, then a comparison. */
async function copyInto(global: AnyDb, target: AnyDb, original: TenantDump) {
  const catalogue = await global.select().from(modules);
  if (catalogue.length > 0) {
    const [first, ...rest] = catalogue.map((m) => target.insert(modules).values(m).onConflictDoUpdate({ target: modules.id, set: m }));
    await target.batch([first!, ...rest]);
  }
  return loadAndCompare(target, original, target.$client === global.$client);
}

/**
 * Replaces whatever the database holds of the tenant with the dump and compares the result with
 * it. `home`: the database is the home one, whose global tenants row stays as it is.
 */
async function loadAndCompare(target: AnyDb, dump: TenantDump, home: boolean) {
  await deleteTenantRows(target.$client, dump.tenantId, { keepTenantRow: home });
  const rows = await importTenant(target.$client, dump, { tenantRowPresent: home });
  const copy = await exportTenant(target.$client, dump.tenantId);
  // The home database's tenants row is the global one, compared by nobody: the rest must match.
  const { counts, differing } = compareDumps(dump, home ? { ...copy, tables: { ...copy.tables, tenants: dump.tables.tenants! } } : copy);
  return differing.length === 0 ? { ok: true as const, rows, counts } : { ok: false as const, code: "copy_differs" as const };
}

export type RestoreTenantError = "tenant_not_found" | "other_tenant" | "copy_differs";

/**
 * Restores one tenant from its backup where it lives now, leaving the shard's other tenants
 * alone: suspended meanwhile, its rows deleted and loaded again from the dump, compared, then
 * reinstated if it was active.
 */
export async function restoreTenant(env: Env, tenantId: string, dump: TenantDump, now = Date.now()): Promise<Result<{ rows: number }, RestoreTenantError>> {
  if (dump.tenantId !== tenantId) return { ok: false, code: "other_tenant" };
  const global = globalDb(env);
  await loadShardRoutes(env, { force: true });
  const [row] = await global.select({ suspendedAt: tenants.suspendedAt }).from(tenants).where(eq(tenants.id, tenantId)).limit(1);
  if (!row) return { ok: false, code: "tenant_not_found" };
  const shard = shardDb(env, shardOf(env, tenantId));
  const wasActive = row.suspendedAt === null;
  if (wasActive) await setSuspendedOn([global, shard], tenantId, now);
  const loaded = await loadAndCompare(shard, dump, shard === global);
  if (wasActive) await reinstate(env, [global, shard], tenantId);
  // A suspended tenant stays suspended, whatever its row said when it was backed up.
  else await setSuspendedOn([shard], tenantId, row.suspendedAt!);
  return loaded.ok ? { ok: true, rows: loaded.rows } : { ok: false, code: loaded.code };
}

async function finishFailed(
  env: Env,
  where: AnyDb[],
  tenantId: string,
  wasActive: boolean,
  target: D1Database,
  code: MoveTenantError,
): Promise<Result<MoveReport, MoveTenantError>> {
  await deleteTenantRows(target, tenantId, { keepTenantRow: target === globalDb(env).$client });
  if (wasActive) await reinstate(env, where, tenantId);
  return { ok: false, code };
}

/** Suspends the tenant's rows in these databases (the global row and the shard copy) for the move. */
async function setSuspendedOn(where: AnyDb[], tenantId: string, now: number): Promise<void> {
  for (const d of new Set(where)) await d.update(tenants).set({ suspendedAt: now, updatedAt: now }).where(eq(tenants.id, tenantId));
}

async function reinstate(env: Env, where: AnyDb[], tenantId: string): Promise<void> {
  for (const d of new Set(where)) await d.update(tenants).set({ suspendedAt: null, updatedAt: Date.now() }).where(eq(tenants.id, tenantId));
  await resumeParkedWork(env, tenantId);
}
