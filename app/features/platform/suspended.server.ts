import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { tenants } from "~/db/schema";

/**
 * True while the tenant is suspended. Background work checks it in the same statement that takes
 * the work (the job claim, the e-mail claim, the park), so a suspension or reinstatement between
 * a read and a write cannot slip through. `tenantId` is a value or a column of the outer query.
 */
export function tenantSuspendedSql(tenantId: string | SQLWrapper): SQL {
  return sql`EXISTS (SELECT 1 FROM ${tenants} WHERE ${tenants.id} = ${tenantId} AND ${tenants.suspendedAt} IS NOT NULL)`;
}
