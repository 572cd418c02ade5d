import { and, count, eq, gte, isNull, sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { cisSubcontractors } from "~/db/schema";

/**
 * Figures from the data the workspace holds so far: the subcontractor base by verification
 * status, type and verification coverage. Invoice, statement and return figures join these
 * when those records exist. One grouped query per breakdown, all in one D1 batch, whatever the tenant's size.
 */
export async function subcontractorAnalytics(env: Env, tenantId: string, since: number) {
  const db = getDb(env);
  const live = and(eq(cisSubcontractors.tenantId, tenantId), isNull(cisSubcontractors.deletedAt));
  const activeLive = and(live, eq(cisSubcontractors.active, true));
  const [byStatus, byType, [coverage], [added]] = await db.batch([
    db
      .select({ status: cisSubcontractors.verificationStatus, rate: cisSubcontractors.verificationRate, n: count() })
      .from(cisSubcontractors)
      .where(activeLive)
      .groupBy(cisSubcontractors.verificationStatus, cisSubcontractors.verificationRate),
    db.select({ type: cisSubcontractors.type, n: count() }).from(cisSubcontractors).where(activeLive).groupBy(cisSubcontractors.type),
    db
      .select({
        active: count(),
        verified: sql<number>`coalesce(sum(case when ${cisSubcontractors.verifiedDate} is not null or ${cisSubcontractors.verificationReference} is not null then 1 else 0 end), 0)`,
        withEmail: sql<number>`coalesce(sum(case when ${cisSubcontractors.email} is not null then 1 else 0 end), 0)`,
      })
      .from(cisSubcontractors)
      .where(activeLive),
    db
      .select({ n: count() })
      .from(cisSubcontractors)
      .where(and(live, gte(cisSubcontractors.createdAt, since))),
  ]);
  return {
    byStatus: (["gross", "standard", "higher"] as const).map((s) => ({
      status: s,
      count: byStatus.filter((r) => r.status === s).reduce((a, r) => a + r.n, 0),
    })),
    byType: (["individual", "company", "partnership"] as const).map((t) => ({ type: t, count: byType.find((r) => r.type === t)?.n ?? 0 })),
    active: coverage?.active ?? 0,
    verified: Number(coverage?.verified ?? 0),
    withEmail: Number(coverage?.withEmail ?? 0),
    addedThisTaxMonth: added?.n ?? 0,
  };
}
