import { eq, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";

/**
 * A table that belongs to tenants: it has a `tenantId` column (`tenant_id` in SQL). Every query on
 * such a table filters by the tenant it runs for (ADR 0051); another tenant's row is not found.
 */
export type TenantTable = SQLiteTable & { tenantId: SQLiteColumn };

/**
 * The condition that keeps a query on `table` to one tenant's rows: `table.tenant_id = tenantId`.
 * Only tables with a tenant column are accepted, so the compiler refuses it on a platform table.
 * `tenantId` may be a placeholder of a prepared statement, bound to the tenant on every use.
 */
export function forTenant(table: TenantTable, tenantId: string | SQLWrapper): SQL {
  return eq(table.tenantId, tenantId);
}

/**
 * `a.tenant_id = b.tenant_id`, both sides named with their table, for correlated sub-selects. (In a
 * single-table select drizzle writes columns without their table, so `eq(a.tenantId, b.tenantId)`
 * inside a selected sub-select would compare the inner table's column with itself.)
 */
export function sameTenant(a: TenantTable, b: TenantTable): SQL {
  return sql`${a}.${sql.identifier(a.tenantId.name)} = ${b}.${sql.identifier(b.tenantId.name)}`;
}
