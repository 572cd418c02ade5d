import { DERIVED_TENANT_TABLES, deleteRowsSql, insertRowSql, selectPageSql, TENANT_TABLES } from "./tenant-tables";

/**
 * One tenant's rows, table by table, as plain JSON: what a backup file holds and what a move
 * copies. Values are SQLite's (text, numbers, null); the columns are listed once per table.
 */
export type TenantDump = {
  format: 1;
  tenantId: string;
  exportedAt: number;
  tables: Record<string, { columns: string[]; rows: unknown[][] }>;
};

export type TenantDataError = "tenant_missing" | "tenant_present" | "dump_mismatch";

export const TENANT_DATA_MESSAGES: Record<TenantDataError, string> = {
  tenant_missing: "The database holds no rows of this tenant.",
  tenant_present: "The database already holds rows of this tenant: delete them before loading a copy.",
  dump_mismatch: "The file is not a backup of this tenant in a format this code reads.",
};

export class TenantDataFault extends Error {
  constructor(readonly code: TenantDataError) {
    super(TENANT_DATA_MESSAGES[code]);
    this.name = "TenantDataFault";
  }
}

/** Rows read per statement, and statements per batch: well inside D1's limits per query and per batch. */
const PAGE = 500;
const STATEMENTS_PER_BATCH = 50;

/** Every row of one tenant in `d1`, in the order the tables can be loaded back. */
export async function exportTenant(d1: D1Database, tenantId: string, now = Date.now()): Promise<TenantDump> {
  const dump: TenantDump = { format: 1, tenantId, exportedAt: now, tables: {} };
  for (const t of TENANT_TABLES) {
    const rows: unknown[][] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await d1.prepare(selectPageSql(t)).bind(tenantId, PAGE, offset).raw();
      rows.push(...page);
      if (page.length < PAGE) break;
    }
    dump.tables[t.name] = { columns: t.columns, rows };
  }
  if ((dump.tables.tenants?.rows.length ?? 0) === 0) throw new TenantDataFault("tenant_missing");
  return dump;
}

/** Does `d1` hold the tenant's copy of its tenants row? */
async function holdsTenant(d1: D1Database, tenantId: string): Promise<boolean> {
  return (await d1.prepare("SELECT 1 FROM tenants WHERE id = ?").bind(tenantId).first()) !== null;
}

/**
 * Loads a dump into a database that holds none of the tenant's rows (but, for the home database,
 * its global tenants row: `tenantRowPresent`), parents before children,
 * in batches (each batch is all or nothing; a failure part-way leaves rows for `deleteTenantRows`).
 */
export async function importTenant(d1: D1Database, dump: TenantDump, { tenantRowPresent = false } = {}): Promise<number> {
  if (dump.format !== 1 || !dump.tables.tenants) throw new TenantDataFault("dump_mismatch");
  // The home database keeps the global tenants row through a restore or a move: only its other rows are loaded.
  if (tenantRowPresent) dump = { ...dump, tables: { ...dump.tables, tenants: { ...dump.tables.tenants, rows: [] } } };
  else if (await holdsTenant(d1, dump.tenantId)) throw new TenantDataFault("tenant_present");
  const statements: D1PreparedStatement[] = [];
  for (const t of TENANT_TABLES) {
    const table = dump.tables[t.name];
    if (!table || table.rows.length === 0) continue;
    // Columns by name: a dump from before a column was added loads with that column's default.
    const sqlText = insertRowSql({ ...t, columns: table.columns.filter((c) => t.columns.includes(c)) });
    const keep = table.columns.map((c) => t.columns.includes(c));
    for (const row of table.rows) statements.push(d1.prepare(sqlText).bind(...row.filter((_, i) => keep[i])));
  }
  for (let i = 0; i < statements.length; i += STATEMENTS_PER_BATCH) await d1.batch(statements.slice(i, i + STATEMENTS_PER_BATCH));
  return statements.length;
}

/**
 * Deletes every row of the tenant from `d1`, children before parents, in one batch. `keepTenantRow`
 * leaves the tenants row itself (the home database's is the global one).
 */
export async function deleteTenantRows(d1: D1Database, tenantId: string, { keepTenantRow = false } = {}): Promise<void> {
  const tables = [...TENANT_TABLES].reverse().filter((t) => !(keepTenantRow && t.name === "tenants"));
  tables.push(...DERIVED_TENANT_TABLES);
  await d1.batch(tables.map((t) => d1.prepare(deleteRowsSql(t)).bind(tenantId)));
}

/** Row counts per table, and the tables whose rows differ between two dumps of one tenant (empty: the same). */
export function compareDumps(a: TenantDump, b: TenantDump): { counts: Record<string, number>; differing: string[] } {
  const counts: Record<string, number> = {};
  const differing: string[] = [];
  for (const t of TENANT_TABLES) {
    const left = rowsByColumn(a, t.name, t.columns);
    const right = rowsByColumn(b, t.name, t.columns);
    counts[t.name] = left.length;
    if (left.length !== right.length || left.some((row, i) => row !== right[i])) differing.push(t.name);
  }
  return { counts, differing };
}

/** A table's rows as sorted JSON strings over the current columns, so column order and row order do not count. */
function rowsByColumn(dump: TenantDump, table: string, columns: string[]): string[] {
  const data = dump.tables[table];
  if (!data) return [];
  const index = columns.map((c) => data.columns.indexOf(c));
  return data.rows.map((row) => JSON.stringify(index.map((i) => (i < 0 ? null : row[i])))).sort();
}
