/** The tenant's storage plan and how much of it is used; the quota check itself is an upload's reservation (files.server.ts). */
import { and, eq, sql } from "drizzle-orm";
import { dbFor, type Db } from "~/db/client.server";
import { storageReservations, storageUsage, type UsageCategory } from "~/db/schema";
import { storageCap } from "./file-rules";
import { ensureUsageRow, RESERVATION_TTL_MS } from "./files.server";

export type UsageSummary = { used: number; reserved: number; fileCount: number; cap: number; tier: string; categories: Partial<Record<UsageCategory, number>> };

export async function getUsage(env: Env, tenantId: string, now = Date.now()): Promise<UsageSummary> {
  const db = dbFor(env, tenantId);
  const [usageRows, reserved] = await db.batch([usageQuery(db, tenantId), reservedQuery(db, tenantId, now)]);
  return toUsage(usageRows[0], reserved[0]?.bytes ?? 0);
}

export function usageQuery(db: Db, tenantId: string) {
  return db.select().from(storageUsage).where(eq(storageUsage.tenantId, tenantId));
}

export function reservedQuery(db: Db, tenantId: string, now: number) {
  return db
    .select({ bytes: sql<number>`COALESCE(SUM(${storageReservations.bytes}), 0)` })
    .from(storageReservations)
    .where(and(eq(storageReservations.tenantId, tenantId), sql`${storageReservations.createdAt} > ${now - RESERVATION_TTL_MS}`));
}

export function toUsage(row: typeof storageUsage.$inferSelect | undefined, reserved: number): UsageSummary {
  const tier = row?.tier ?? "free";
  return {
    used: row?.usedBytes ?? 0,
    reserved,
    fileCount: row?.fileCount ?? 0,
    cap: storageCap(tier, row?.customLimit ?? null),
    tier,
    categories: row?.categoryBytes ?? {},
  };
}
/** Sets a tenant's tier and custom limit (platform administration and tests). */
export async function setStoragePlan(
  env: Env,
  tenantId: string,
  plan: { tier: (typeof storageUsage.$inferSelect)["tier"]; customLimit?: number | null },
  now = Date.now(),
) {
  const db = dbFor(env, tenantId);
  await db.batch([
    ensureUsageRow(db, tenantId, now),
    db
      .update(storageUsage)
      .set({ tier: plan.tier, customLimit: plan.customLimit ?? null, updatedAt: now })
      .where(eq(storageUsage.tenantId, tenantId)),
  ]);
}
