import { count, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "./client.server";

/**
 * How many pages past the one shown a search counts its matches for. A `LIKE '%term%'` has no
 * index to narrow it, so counting every match reads the whole table; counting only as far as the
 * pager's next steps reads about as many rows as the page itself (a few pages' worth of matches).
 */
export const SEARCH_PAGES_AHEAD = 3;

/** The most matches a search on `page` counts: up to SEARCH_PAGES_AHEAD pages beyond it, and one more to know there are more. */
export function searchCountLimit(page: number, pageSize: number): number {
  return (page + SEARCH_PAGES_AHEAD) * pageSize + 1;
}

/** `SELECT count(*) FROM (SELECT 1 FROM table WHERE where LIMIT limit)`: stops reading at `limit` matches. */
export function cappedCountQuery(db: Db, table: SQLiteTable, where: SQL | undefined, limit: number | Placeholder) {
  const matches = db
    .select({ one: sql`1`.as("one") })
    .from(table)
    .where(where)
    .limit(limit)
    .as("matches");
  return db.select({ total: count() }).from(matches);
}

/**
 * A list's total and page count from its (possibly capped) count: when the count reached `limit`,
 * the total is a lower bound ("more than `total`") and so is the page count ("at least").
 */
export function pagedTotal(counted: number, pageSize: number, limit = Infinity): { total: number; more: boolean; pageCount: number } {
  const more = counted >= limit;
  const total = more ? limit - 1 : counted;
  return { total, more, pageCount: Math.max(1, Math.ceil((more ? limit : total) / pageSize)) };
}
