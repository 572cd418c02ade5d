import { and, count, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Db } from "./client.server";
import { knownCommonTerm, noteCommonTerm } from "./common-search-terms.server";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { TenantTable } from "./tenancy";

/**
 * Substring search (`%term%`) through a trigram full-text index, for lists whose search would
 * otherwise read every row of the tenant (ADR 0081).
 *
 * Neither way of answering a search is cheap for every term. Reading the list's index in order
 * and testing each row with LIKE stops as soon as the page (or the capped count) is full: cheap for
 * a term most rows contain, a read of every row for a rare one (an invoice number). The trigram
 * index returns exactly the matching rows: cheap for a rare term, every match to read and sort for
 * a common one ("ltd"). So one statement does both: it asks the index for up to PROBE_LIMIT + 1
 * matches and, when there are at most PROBE_LIMIT, reads those rows; otherwise the term is common
 * and the ordered LIKE scan runs instead, its LIMIT set to 0 when the index has answered so it
 * reads nothing. Either way the SQL returns the same rows in the same order. A term the count found
 * common is noted for the tenant for a while (common-search-terms.server.ts, ADR 0085): the list's
 * next searches for it leave the index out and scan with LIKE at once, as for a short term.
 *
 * The index needs three characters (its tokens are trigrams): shorter terms keep the LIKE alone.
 */

/** How many matches the index may return before the term counts as common. */
export const PROBE_LIMIT = 500;

/** A trigram index kept beside a table: its name, the column holding the row's id, the columns searched. */
export type TrigramIndex = { name: string; idColumn: string; columns: readonly string[] };

/** Whether the index can answer for this term: it holds three-character tokens, so at least three characters. */
export function trigramUsable(term: string): boolean {
  return [...term].length >= 3;
}

/** Whether a search for `term` asks the tenant's index: long enough, and not noted common lately (ADR 0085). */
export function trigramAsked(index: TrigramIndex, tenantId: string, term: string, now: number = Date.now()): boolean {
  return trigramUsable(term) && !knownCommonTerm(index.name, tenantId, term, now);
}

/** Notes `term` as common for the tenant when a search's count (`trigramSearchCount`) says the LIKE scan answered. */
export function noteWhenCommon(index: TrigramIndex, tenantId: string, term: string, counted: object, now: number = Date.now()): void {
  if ("common" in counted && counted.common === 1) noteCommonTerm(index.name, tenantId, term, now);
}

/**
 * The full-text query for `term` as a literal substring of any of the index's searched columns: one
 * phrase in double quotes (a quote inside doubled), so nothing in the term is read as query syntax.
 */
export function trigramMatch(index: TrigramIndex, term: string): string {
  return `{${index.columns.join(" ")}} : "${term.replaceAll('"', '""')}"`;
}

type Bindable = string | number | SQLWrapper;

export type TrigramSearch = {
  table: TenantTable;
  id: SQLiteColumn;
  index: TrigramIndex;
  tenantId: Bindable;
  /** `trigramMatch(index, term)`, or a placeholder bound to it. */
  match: Bindable;
  /** The same search as a condition on the table's own columns (LIKE), for common terms. */
  like: SQL;
  /** Ids that match the term another way (an exact identifier), selected as `hit_id`; they are always kept. */
  extraIds?: SQL;
  /** Every other filter of the list (tenant, not deleted, status...). */
  where: SQL | undefined;
  /** The list's order; empty when only the number of matches matters. */
  order: readonly { column: SQLiteColumn; desc: boolean }[];
  /** How many rows from the start are wanted: the page's end (offset + page size), or a count's cap. */
  limit: Bindable;
  /** Overrides PROBE_LIMIT (tests reach both ways with a few rows). */
  probeLimit?: number;
};

/**
 * The list's whole condition for a search: the tenant's rows among the leading `limit` rows that
 * pass every filter and match, in the list's order. The list's order and limit then read only these
 * rows, by id. Its tenant condition is written `+tenant_id`, which no index can serve: beside the
 * ids, SQLite would otherwise walk the tenant's index testing each row against them, reading every row.
 */
export function inTrigramSearch(s: TrigramSearch): SQL {
  return sql`+${s.table.tenantId} = ${s.tenantId} AND ${s.id} IN (${searchedIds(s)})`;
}

/**
 * How many rows match, up to `limit` (a capped count: give it no order), counted from the ids alone;
 * `common` is 1 when the index found the term common (the LIKE scan answered), 0 when the index's
 * matches did, null when nothing matched. The list notes a common term (ADR 0085).
 */
export function trigramSearchCount(db: Db, s: TrigramSearch) {
  return db.select({ total: count(), common: sql<number | null>`max("common")` }).from(sql`(${searchedIds(s, true)}) AS "matches"`);
}

/** The leading `limit` matching rows' ids (`hit_id`; with `common`, which way each came), one SELECT whichever way answers. */
function searchedIds(s: TrigramSearch, withCommon = false): SQL {
  // Raw SQL only for this integer of the code's own (the probe limit); every value is bound.
  const limit = s.probeLimit ?? PROBE_LIMIT;
  if (!Number.isInteger(limit) || limit < 0) throw new Error("the probe limit must be a non-negative integer");
  const k = sql.raw(String(limit));
  const fts = sql.identifier(s.index.name);
  const keys = s.order.map((o, i) => sql`, ${o.column} AS ${sql.identifier(`k${i}`)}`);
  const orderBy = (named: boolean) =>
    s.order.length === 0
      ? sql``
      : sql` ORDER BY ${sql.join(
          s.order.map((o, i) => sql`${named ? sql.identifier(`k${i}`) : o.column}${o.desc ? sql` DESC` : sql``}`),
          sql`, `,
        )}`;
  const where = s.where ?? sql`1`;
  const probe = sql`SELECT ${sql.identifier(s.index.idColumn)} AS "hit_id" FROM ${fts} WHERE ${fts} MATCH ${s.match} AND ${fts}."tenant_id" = ${s.tenantId}`;
  return sql`WITH "probe" AS (SELECT DISTINCT "hit_id" FROM (${probe}${s.extraIds ? sql` UNION ALL ${s.extraIds}` : sql``}) LIMIT ${k} + 1)
SELECT "hit_id"${withCommon ? sql`, "common"` : sql``} FROM (
SELECT ${s.id} AS "hit_id", 0 AS "common"${sql.join(keys, sql``)} FROM (SELECT 1 AS "one" WHERE (SELECT count(*) FROM "probe") <= ${k}) CROSS JOIN "probe" AS "p" CROSS JOIN ${s.table} ON ${s.id} = "p"."hit_id" WHERE ${where}
UNION ALL
SELECT * FROM (SELECT ${s.id} AS "hit_id", 1 AS "common"${sql.join(keys, sql``)} FROM ${s.table} WHERE ${and(where, s.like)}${orderBy(false)} LIMIT CASE WHEN (SELECT count(*) FROM "probe") > ${k} THEN ${s.limit} ELSE 0 END)
)${orderBy(true)} LIMIT ${s.limit}`;
}
