import { eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A table that belongs to tenants: it has a `tenantId` column (`tenant_id` in SQL). Every query on
 * such a table filters by the tenant it runs for (ADR 0051); another tenant's row is not found.
 */
export type TenantTable = SQLiteTable & { tenantId: SQLiteColumn };

/**
 * The condition that keeps a query on `table` to one tenant's rows: `table.tenant_id = tenantId`.
 * Only tables with a tenant column are accepted, so the compiler refuses it on a platform table.
 */
export function forTenant(table: TenantTable, tenantId: string): SQL {
  return eq(table.tenantId, tenantId);
}
