import { getTableColumns, is, sql, SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.server";

/**
 * An INSERT of one row that lands only while `where` holds, checked by the database in the same
 * statement (so inside a D1 batch it sees the batch's earlier writes). `values` are stored values
 * by column key; `from` optionally names a table (or a join, as SQL) the values and condition may refer to.
 * Columns left out take their default, or NULL. The column list is built from the table, so
 * adding a column to the table does not break the insert.
 */
export function insertWhere<T extends SQLiteTable>(
  db: Db,
  table: T,
  values: Partial<Record<keyof T["_"]["columns"], unknown>>,
  where: SQL,
  opts: { from?: SQLiteTable | SQL } = {},
) {
  const given = values as Record<string, unknown>;
  const exprs = Object.entries(getTableColumns(table)).map(([key, col]) => {
    if (Object.hasOwn(given, key)) {
      const v = given[key];
      return is(v, SQL) ? v : sql`${v ?? null}`;
    }
    if (col.defaultFn) return sql`${col.defaultFn()}`;
    if (col.default !== undefined) return is(col.default, SQL) ? col.default : sql`${col.default}`;
    return sql`NULL`;
  });
  const from = opts.from ? sql` FROM ${opts.from}` : sql``;
  return db.insert(table).select(sql`SELECT ${sql.join(exprs, sql`, `)}${from} WHERE ${where}`);
}
