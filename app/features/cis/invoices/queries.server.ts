/**
 * Reading invoices: one invoice, the list (filters, page, total and stat cards), invoice numbers
 * for confirmation steps, and the detail page. Soft-deleted invoices never show; every query is
 * scoped to the tenant.
 */
import type { BatchResponse } from "drizzle-orm/batch";
import type { PagePrefetched } from "~/features/platform/index.server";
import { forTenant, sameTenant } from "~/db/tenancy";
import { and, asc, desc, eq, inArray, isNull, or, sql, type Placeholder, type SQL, type SQLWrapper } from "drizzle-orm";
import { z } from "zod";
import { dbFor, type Db } from "~/db/client.server";
import { preparedStatement, type Placeholders } from "~/db/prepared.server";
import { cappedCountQuery, pagedTotal, searchCountLimit } from "~/db/capped-count.server";
import {
  inTrigramSearch,
  noteWhenCommon,
  trigramAsked,
  trigramMatch,
  trigramSearchCount,
  trigramUsable,
  type TrigramIndex,
  type TrigramSearch,
} from "~/db/trigram-search.server";
import { cisInvoiceCounts, cisInvoices, cisSubcontractors, users } from "~/db/schema";
import { currentTaxMonth, materialsWarning, previousTaxMonth } from "../domain";
import { pendingStatementsCountQuery } from "../statements/statements.server";
import { INVOICE_BULK_LIMIT, INVOICE_PAGE_SIZE, INVOICE_PERIODS, INVOICE_STATUS_FILTERS, type InvoicePeriod, type InvoiceStatusFilter } from "./invoice-codes";

export type InvoiceRow = typeof cisInvoices.$inferSelect;

/** A value of a statement: the value itself, or a placeholder of a prepared statement bound to it per use. */
type Bindable = string | SQLWrapper;

/** Soft-deleted invoices never show; everything is scoped to the tenant. */
export function visible(tenantId: Bindable) {
  return and(forTenant(cisInvoices, tenantId), isNull(cisInvoices.deletedAt));
}

/** Null for another tenant's id, an unknown id, or a deleted invoice: callers answer 404. */
export async function getInvoice(env: Env, tenantId: string, id: string): Promise<InvoiceRow | null> {
  const [row] = await dbFor(env, tenantId)
    .select()
    .from(cisInvoices)
    .where(and(visible(tenantId), eq(cisInvoices.id, id)))
    .limit(1);
  return row ?? null;
}

export type InvoiceListQuery = { q: string; status: InvoiceStatusFilter; period: InvoicePeriod; page: number };

const listQuerySchema = z.object({
  q: z
    .string()
    .catch("")
    .transform((q) => q.trim().slice(0, 100)),
  status: z.enum(INVOICE_STATUS_FILTERS).catch("all"),
  period: z.enum(INVOICE_PERIODS).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/** Unknown or malformed filters fall back to their defaults rather than failing the page. */
export function parseInvoiceListQuery(params: URLSearchParams): InvoiceListQuery {
  return listQuerySchema.parse({
    q: params.get("q") ?? "",
    status: params.get("status") ?? "all",
    period: params.get("period") ?? "all",
    page: params.get("page") ?? "1",
  });
}

/**
 * The tax months ('YYYY-MM', inclusive) a period covers, on the London calendar: current and
 * previous are one month; quarter is the current month and the two before; year runs from the
 * tax year's first month (starting 6 April) to the current one.
 */
export function periodTaxMonths(period: InvoicePeriod, now: Date = new Date()): { from: string; to: string } | null {
  const current = currentTaxMonth(now).label;
  switch (period) {
    case "all":
      return null;
    case "current":
      return { from: current, to: current };
    case "previous": {
      const prev = previousTaxMonth(current).label;
      return { from: prev, to: prev };
    }
    case "quarter":
      return { from: previousTaxMonth(previousTaxMonth(current).label).label, to: current };
    case "year": {
      const year = Number(current.slice(0, 4));
      const month = Number(current.slice(5, 7));
      return { from: `${month >= 4 ? year : year - 1}-04`, to: current };
    }
  }
}

/** The list's filters as one condition; shared with the CSV export so a download holds what the list shows. */
export function invoiceFilter(tenantId: string, query: Pick<InvoiceListQuery, "q" | "status" | "period">, now: Date = new Date()): SQL | undefined {
  return invoiceConditions(tenantId, filterValues(query, now));
}

/**
 * The filters' values (null: that filter is off): status, the period's first and last tax month, the
 * search's LIKE pattern, and its trigram query when the term is long enough for the index.
 */
type FilterValues<T = string> = { status: T | null; from: T | null; to: T | null; term: T | null; match: T | null };

/** Invoice numbers and subcontractor names (lower-cased), kept by the triggers of migration 0046. */
const SEARCH_INDEX: TrigramIndex = { name: "cis_invoices_search", idColumn: "invoice_id", columns: ["invoice_number", "subcontractor_name"] };

/** The list's order: newest invoice date first, then id. */
const LIST_ORDER = [
  { column: cisInvoices.invoiceDate, desc: true },
  { column: cisInvoices.id, desc: true },
] as const;

/** A search through the trigram index: how many leading rows, and whether in the list's order (a page) or any (a count). */
type Indexed = { limit: number | SQLWrapper; ordered: boolean };

function filterValues(query: Pick<InvoiceListQuery, "q" | "status" | "period">, now: Date): FilterValues {
  const months = periodTaxMonths(query.period, now);
  return {
    status: query.status === "all" ? null : query.status,
    from: months?.from ?? null,
    to: months?.to ?? null,
    term: query.q ? `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null,
    match: query.q && trigramUsable(query.q) ? trigramMatch(SEARCH_INDEX, query.q) : null,
  };
}

/**
 * The filters as one condition. With `indexed`, a search of three characters or more goes through
 * the trigram index and yields only the leading `limit` matches (a page, a capped count); without
 * it (the CSV export, which wants every match) the search is a LIKE on each row.
 */
function invoiceConditions(tenantId: Bindable, f: FilterValues<Bindable>, indexed: Indexed | null = null): SQL | undefined {
  const conds = filterConditions(tenantId, f);
  if (f.term === null) return and(...conds);
  if (indexed && f.match !== null) return inTrigramSearch(indexedSearch(tenantId, f, f.match, conds, indexed));
  return and(...conds, searchLike(f.term));
}

/** Every filter but the search. */
function filterConditions(tenantId: Bindable, f: FilterValues<Bindable>): (SQL | undefined)[] {
  const conds: (SQL | undefined)[] = [visible(tenantId)];
  if (f.status !== null) conds.push(sql`${cisInvoices.status} = ${f.status}`);
  if (f.from !== null && f.to !== null) conds.push(sql`${cisInvoices.taxMonth} BETWEEN ${f.from} AND ${f.to}`);
  return conds;
}

const searchLike = (term: Bindable) =>
  or(sql`lower(${cisInvoices.invoiceNumber}) LIKE ${term} ESCAPE '\\'`, sql`${cisInvoices.subcontractorNameLower} LIKE ${term} ESCAPE '\\'`) as SQL;

function indexedSearch(tenantId: Bindable, f: FilterValues<Bindable>, match: Bindable, conds: (SQL | undefined)[], indexed: Indexed): TrigramSearch {
  return {
    table: cisInvoices,
    id: cisInvoices.id,
    index: SEARCH_INDEX,
    tenantId,
    match,
    like: searchLike(f.term as Bindable),
    where: and(...conds),
    order: indexed.ordered ? LIST_ORDER : [],
    limit: indexed.limit,
  };
}

/**
 * The columns a list row is made from: only what the table shows (reading whole rows cost the
 * page's D1 transfer, drizzle's mapping and the loader data for fields never rendered).
 */
const LIST_COLUMNS = {
  id: cisInvoices.id,
  invoiceNumber: cisInvoices.invoiceNumber,
  subcontractorName: cisInvoices.subcontractorName,
  status: cisInvoices.status,
  source: cisInvoices.source,
  invoiceDate: cisInvoices.invoiceDate,
  paymentDate: cisInvoices.paymentDate,
  grossP: cisInvoices.grossP,
  materialsP: cisInvoices.materialsP,
  cisDeductionP: cisInvoices.cisDeductionP,
  cisRate: cisInvoices.cisRate,
  netPaymentP: cisInvoices.netPaymentP,
  materialsPercentage: cisInvoices.materialsPercentage,
  portalLinkRevealedBy: cisInvoices.portalLinkRevealedBy,
};
type InvoiceListRow = Pick<
  InvoiceRow,
  | "id"
  | "invoiceNumber"
  | "subcontractorName"
  | "status"
  | "source"
  | "invoiceDate"
  | "paymentDate"
  | "grossP"
  | "materialsP"
  | "cisDeductionP"
  | "cisRate"
  | "netPaymentP"
  | "materialsPercentage"
  | "portalLinkRevealedBy"
> & { linkShownTo?: string | null };

/** What a list row needs, with the 60% materials warning worked out once here. */
export function invoiceListItem(row: InvoiceListRow) {
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    subcontractorName: row.subcontractorName,
    status: row.status,
    source: row.source,
    invoiceDate: row.invoiceDate,
    paymentDate: row.paymentDate,
    grossP: row.grossP,
    materialsP: row.materialsP,
    cisDeductionP: row.cisDeductionP,
    cisRate: row.cisRate,
    netPaymentP: row.netPaymentP,
    materialsPercentage: row.materialsPercentage,
    // From the pence, not the stored (rounded) percentage: 59.999% must not warn.
    materialsWarning: materialsWarning(row.grossP, row.materialsP) !== null,
    // Sent through a portal link a staff member was shown: their name (or a stand-in once they left).
    linkShownTo: row.portalLinkRevealedBy === null ? null : (row.linkShownTo ?? "a former user"),
  };
}
export type InvoiceListItem = ReturnType<typeof invoiceListItem>;

export type InvoiceStats = {
  total: number;
  draft: number;
  approved: number;
  thisMonthCisP: number;
  pendingStatements: number;
  /** The tax month Pending Statements counts: 'YYYY-MM' and its display label. */
  pendingStatementsMonth: { label: string; displayLabel: string };
};

/**
 * The stat cards over the tenant's visible invoices (not the filtered view), for its current tax
 * month ('YYYY-MM'); tenant and month are values or a prepared statement's placeholders. Draft counts
 * drafts and portal submissions awaiting approval; This Month CIS sums the deductions of approved
 * and paid invoices in the month; Pending Statements counts the statements the month still needs
 * generated, as the statements screen's Pending Generation card does (`pendingStatementsCountQuery`:
 * one per subcontractor, read through the month's invoices). The rest is one aggregate over the
 * tenant's rows of cis_invoice_counts (a row per status and tax month, kept by triggers in the same
 * statement as every invoice write): a few hundred rows read at 50,000 invoices instead of every
 * invoice. The invoice list and the CIS dashboard both put it in their own D1 batch, so their
 * figures cannot differ.
 */
export function statsQuery(db: Db, tenantId: Bindable, month: Bindable) {
  const c = cisInvoiceCounts;
  const sumWhen = (cond: SQL, column: SQLWrapper = c.n) => sql<number>`coalesce(sum(CASE WHEN ${cond} THEN ${column} ELSE 0 END), 0)`;
  return db
    .select({
      total: sql<number>`coalesce(sum(${c.n}), 0)`,
      draft: sumWhen(sql`${c.status} IN ('draft', 'portal_draft')`),
      approved: sumWhen(sql`${c.status} = 'approved'`),
      thisMonthCisP: sumWhen(sql`${c.taxMonth} = ${month} AND ${c.status} IN ('approved', 'paid')`, c.cisDeductionP),
      pendingStatements: sql<number>`(${pendingStatementsCountQuery(db, tenantId, month)})`,
    })
    .from(c)
    .where(sql`${c.tenantId} = ${tenantId}`);
}

/**
 * The filtered view's total. Without a search term every filter (status, period) is a condition
 * on the counted rows' key, so the total sums cis_invoice_counts; a search has to look at the
 * invoices themselves and counts its matches only as far as the pager reaches from this page
 * (`countLimit`, `searchCountLimit`), through the list's covering index.
 */
function totalQuery(db: Db, tenantId: Bindable, f: FilterValues<Bindable>, countLimit: number | Placeholder | null) {
  if (f.term !== null && f.match !== null && countLimit !== null)
    return trigramSearchCount(db, indexedSearch(tenantId, f, f.match, filterConditions(tenantId, f), { limit: countLimit, ordered: false }));
  if (f.term !== null && countLimit !== null) return cappedCountQuery(db, cisInvoices, invoiceConditions(tenantId, f), countLimit);
  const c = cisInvoiceCounts;
  return db
    .select({ total: sql<number>`coalesce(sum(${c.n}), 0)`.mapWith(Number) })
    .from(c)
    .where(
      and(
        sql`${c.tenantId} = ${tenantId}`,
        f.status === null ? undefined : sql`${c.status} = ${f.status}`,
        f.from !== null && f.to !== null ? sql`${c.taxMonth} BETWEEN ${f.from} AND ${f.to}` : undefined,
      ),
    );
}

export function toInvoiceStats(
  row: { total: number; draft: number; approved: number; thisMonthCisP: number; pendingStatements: number },
  now: Date = new Date(),
): InvoiceStats {
  const month = currentTaxMonth(now);
  return {
    total: Number(row.total),
    draft: Number(row.draft),
    approved: Number(row.approved),
    thisMonthCisP: Number(row.thisMonthCisP),
    pendingStatements: Number(row.pendingStatements),
    pendingStatementsMonth: { label: month.label, displayLabel: month.displayLabel },
  };
}

function pageQuery(db: Db, tenantId: Bindable, f: FilterValues<Bindable>, offset: number | Placeholder, pageEnd: number | Placeholder) {
  return db
    .select({
      ...LIST_COLUMNS,
      // Looked up by primary key for the rows of the page only, and only where a link was shown.
      linkShownTo: sql<string | null>`CASE WHEN ${cisInvoices.portalLinkRevealedBy} IS NULL THEN NULL ELSE
          (SELECT ${users.displayName} FROM ${users} WHERE ${users.id} = ${cisInvoices.portalLinkRevealedBy} AND ${sameTenant(users, cisInvoices)}) END`.as(
        "link_shown_to",
      ),
    })
    .from(cisInvoices)
    .where(invoiceConditions(tenantId, f, { limit: pageEnd, ordered: true }))
    .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.id))
    .limit(INVOICE_PAGE_SIZE)
    .offset(offset);
}

/**
 * The values the list's statements are bound to for one view. A term the index lately found common
 * for the tenant leaves the index out (`match` null): the LIKE scan answers, as it would after the
 * index's probe (ADR 0085).
 */
function listValues(tenantId: string, query: InvoiceListQuery, now: Date) {
  const filters = filterValues(query, now);
  if (filters.match !== null && !trigramAsked(SEARCH_INDEX, tenantId, query.q, now.getTime())) filters.match = null;
  return {
    tenantId,
    ...filters,
    offset: (query.page - 1) * INVOICE_PAGE_SIZE,
    pageEnd: query.page * INVOICE_PAGE_SIZE,
    countLimit: query.q ? searchCountLimit(query.page, INVOICE_PAGE_SIZE) : null,
    month: currentTaxMonth(now).label,
  };
}
type ListValues = ReturnType<typeof listValues>;

/** The list's three statements (page, total, cards), built afresh: what `listInvoices` prepares once, for the benchmark's query plans. */
export function invoiceListQueries(db: Db, tenantId: string, query: InvoiceListQuery, now: Date = new Date()) {
  const v = listValues(tenantId, query, now);
  return [pageQuery(db, tenantId, v, v.offset, v.pageEnd), totalQuery(db, tenantId, v, v.countLimit), statsQuery(db, tenantId, v.month)] as const;
}

// The same three statements, built once per database and shape (which filters are on) with the
// view's values as placeholders: a list view binds its values instead of building its SQL.
const listShape = (v: ListValues) => [v.status, v.from, v.term, v.match].map((x) => (x === null ? "-" : "+")).join("");
function placeheldFilters(p: Placeholders<ListValues>, v: ListValues): FilterValues<Bindable> {
  return {
    status: v.status === null ? null : p.status,
    from: v.from === null ? null : p.from,
    to: v.to === null ? null : p.to,
    term: v.term === null ? null : p.term,
    match: v.match === null ? null : p.match,
  };
}
const preparedPage = preparedStatement(
  (db, p: Placeholders<ListValues>, v) => pageQuery(db, p.tenantId, placeheldFilters(p, v), p.offset, p.pageEnd),
  listShape,
);
const preparedTotal = preparedStatement(
  (db, p: Placeholders<ListValues>, v) => totalQuery(db, p.tenantId, placeheldFilters(p, v), v.countLimit === null ? null : p.countLimit),
  listShape,
);
const preparedStats = preparedStatement((db, p: Placeholders<ListValues>) => statsQuery(db, p.tenantId, p.month));

/** One page, the total for the pager and the five stat cards (statsQuery), in a single D1 round trip. */
/** The list's batch: the page, its total and the summary cards, bound to the view's tenant and filters at `now`. */
export function invoiceListStatements(db: Db, tenantId: string, query: InvoiceListQuery, now: Date) {
  return preparedList(db, listValues(tenantId, query, now));
}

function preparedList(db: Db, v: ListValues) {
  return [preparedPage(db, v), preparedTotal(db, v), preparedStats(db, v)] as const;
}

/**
 * One page of the list with its total and cards, from one batch: the one the tenant middleware
 * already ran for this request when given (`prefetched`, ADR 0082), else its own.
 */
export async function listInvoices(env: Env, tenantId: string, query: InvoiceListQuery, at: Date = new Date(), prefetched: PagePrefetched | null = null) {
  const now = prefetched?.now ?? at;
  const db = dbFor(env, tenantId);
  const v = listValues(tenantId, query, now);
  const [rows, [counted], [stats]] = prefetched ? (prefetched.results as BatchResponse<ReturnType<typeof preparedList>>) : await db.batch(preparedList(db, v));
  const total = counted.total;
  if (v.match !== null) noteWhenCommon(SEARCH_INDEX, tenantId, query.q, counted, now.getTime());
  return {
    rows: rows.map(invoiceListItem),
    // A search's total is "more than `total`" when its count stopped at the limit.
    ...pagedTotal(total, INVOICE_PAGE_SIZE, v.countLimit ?? Infinity),
    page: query.page,
    stats: toInvoiceStats(stats, now),
  };
}

/**
 * Invoice numbers of this tenant's visible invoices among `ids` (for confirmation steps and
 * results), and the ids among them whose portal link was shown to `actorId` (four eyes).
 */
export async function invoiceNumbers(
  env: Env,
  tenantId: string,
  ids: string[],
  actorId?: string,
): Promise<{ numbers: Record<string, string>; shownToActor: Set<string> }> {
  const unique = [...new Set(ids)].slice(0, INVOICE_BULK_LIMIT);
  if (unique.length === 0) return { numbers: {}, shownToActor: new Set() };
  const rows = await dbFor(env, tenantId)
    .select({ id: cisInvoices.id, invoiceNumber: cisInvoices.invoiceNumber, revealedBy: cisInvoices.portalLinkRevealedBy })
    .from(cisInvoices)
    .where(and(visible(tenantId), inArray(cisInvoices.id, unique)))
    .orderBy(asc(cisInvoices.invoiceNumber));
  return {
    numbers: Object.fromEntries(rows.map((r) => [r.id, r.invoiceNumber])),
    shownToActor: new Set(rows.filter((r) => actorId !== undefined && r.revealedBy === actorId).map((r) => r.id)),
  };
}

export type InvoiceDetailSub = { id: string; name: string; email: string | null; active: boolean };

/**
 * The detail page's data in one D1 round trip: the invoice, its subcontractor (for the link and
 * whether it has an e-mail address) and the display names of the people who acted on it. Each
 * statement filters by tenant; null when the invoice is not this tenant's or is deleted.
 */
export async function getInvoiceDetail(env: Env, tenantId: string, id: string) {
  const db = dbFor(env, tenantId);
  const thisInvoice = and(visible(tenantId), eq(cisInvoices.id, id));
  const [rows, subs, people] = await db.batch([
    db.select().from(cisInvoices).where(thisInvoice).limit(1),
    db
      .select({ id: cisSubcontractors.id, name: cisSubcontractors.name, email: cisSubcontractors.email, active: cisSubcontractors.active })
      .from(cisSubcontractors)
      .where(
        and(
          forTenant(cisSubcontractors, tenantId),
          isNull(cisSubcontractors.deletedAt),
          inArray(cisSubcontractors.id, db.select({ id: cisInvoices.subcontractorId }).from(cisInvoices).where(thisInvoice)),
        ),
      )
      .limit(1),
    db
      .select({ id: users.id, name: users.displayName })
      .from(users)
      .where(
        and(
          forTenant(users, tenantId),
          sql`${users.id} IN (SELECT value FROM ${cisInvoices}, json_each(json_array(${cisInvoices.createdBy}, ${cisInvoices.approvedBy}, ${cisInvoices.paidBy}, ${cisInvoices.cancelledBy}, ${cisInvoices.statementRequestedBy}, ${cisInvoices.portalLinkRevealedBy})) WHERE ${thisInvoice})`,
        ),
      ),
  ]);
  const invoice = rows[0];
  if (!invoice) return null;
  const sub: InvoiceDetailSub | null = subs[0] ?? null;
  return { invoice, sub, names: Object.fromEntries(people.map((p) => [p.id, p.name])) as Record<string, string> };
}
