import { getTableColumns, getTableName, is } from "drizzle-orm";
import { getTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import * as schema from "~/db/schema";

/**
 * Which rows make up one tenant, in an order they can be inserted in: read from the schema, so a
 * new table with a tenant_id column is part of every backup and move without a list to keep.
 * Pure (no database): the Worker's operations and the command-line scripts share it.
 */
export type TenantTable = { name: string; columns: string[]; key: "id" | "tenant_id" };

const tables = Object.values(schema as Record<string, unknown>).filter((v): v is SQLiteTable => is(v, SQLiteTable));

function columnsOf(t: SQLiteTable): string[] {
  return Object.values(getTableColumns(t)).map((c) => c.name);
}

/** Tables with a tenant_id that only the platform's database holds: not part of a tenant's data. */
const GLOBAL_ONLY = new Set(["dead_letters", "dev_mailbox"]);

/**
 * Tables whose rows triggers derive from other tables' rows (list counts): not copied, since loading
 * the rows they count rebuilds them, but deleted with the tenant.
 */
const DERIVED = new Set(["cis_invoice_counts", "cis_subcontractor_counts", "cis_paid_month_counts"]);

/** The tables a tenant's rows fill: its copy of the `tenants` row (by id) first, then every table with tenant_id. */
function tenantOwned(): SQLiteTable[] {
  return tables.filter((t) => getTableName(t) === "tenants" || (columnsOf(t).includes("tenant_id") && !GLOBAL_ONLY.has(getTableName(t))));
}

/** Parents before children, by the foreign keys between tenant tables; ties by name so the order is stable. */
function insertionOrder(owned: SQLiteTable[]): SQLiteTable[] {
  const names = new Set(owned.map((t) => getTableName(t)));
  const parents = new Map(
    owned.map((t) => [
      getTableName(t),
      new Set(
        getTableConfig(t)
          .foreignKeys.map((fk) => getTableName(fk.reference().foreignTable))
          .filter((p) => names.has(p) && p !== getTableName(t)),
      ),
    ]),
  );
  const ordered: SQLiteTable[] = [];
  const placed = new Set<string>();
  const pending = [...owned].sort((a, b) => getTableName(a).localeCompare(getTableName(b)));
  while (pending.length > 0) {
    const i = pending.findIndex((t) => [...parents.get(getTableName(t))!].every((p) => placed.has(p)));
    // A cycle of foreign keys would leave nothing placeable: take the first and go on.
    const [next] = pending.splice(Math.max(0, i), 1);
    ordered.push(next!);
    placed.add(getTableName(next!));
  }
  return ordered;
}

const ALL_TENANT_TABLES: readonly TenantTable[] = insertionOrder(tenantOwned()).map((t) => ({
  name: getTableName(t),
  columns: columnsOf(t),
  key: getTableName(t) === "tenants" ? "id" : "tenant_id",
}));

/** The tables a backup, restore or move copies, parents first. */
export const TENANT_TABLES: readonly TenantTable[] = ALL_TENANT_TABLES.filter((t) => !DERIVED.has(t.name));

/** The trigger-kept tables: deleted after the rows they count (whose delete triggers update them). */
export const DERIVED_TENANT_TABLES: readonly TenantTable[] = ALL_TENANT_TABLES.filter((t) => DERIVED.has(t.name));

/** The statement reading one page of a tenant's rows of a table (ordered by rowid, so pages do not overlap). */
export function selectPageSql(t: TenantTable): string {
  return `SELECT ${t.columns.map(quote).join(", ")} FROM ${quote(t.name)} WHERE ${quote(t.key)} = ? ORDER BY rowid LIMIT ? OFFSET ?`;
}

/** The statement inserting one row of a table, its values bound in `columns` order. */
export function insertRowSql(t: TenantTable): string {
  return `INSERT INTO ${quote(t.name)} (${t.columns.map(quote).join(", ")}) VALUES (${t.columns.map(() => "?").join(", ")})`;
}

/** The statement deleting a tenant's rows of a table. */
export function deleteRowsSql(t: TenantTable): string {
  return `DELETE FROM ${quote(t.name)} WHERE ${quote(t.key)} = ?`;
}

function quote(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
