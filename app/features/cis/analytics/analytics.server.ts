import { and, count, desc, eq, gte, inArray, isNull, lte, sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { formatInTimeZone } from "date-fns-tz";
import { dbFor, type Db } from "~/db/client.server";
import { cisInvoices, cisReturns, cisStatements, cisSubcontractors } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { toCsv } from "~/utils/csv";
import { LONDON } from "~/utils/dates";
import { currentTaxMonth, penceToPoundsString, previousTaxMonth, SUBCONTRACTOR_TYPES, VERIFICATION_STATUSES, type TaxMonth } from "../domain";
import type { Actor } from "~/features/auth";
import { materialsShare, type FilingState } from "./analytics-codes";
import type { Result } from "~/utils/result";

/** How many tax months the analytics cover, ending with the current one. */
export const ANALYTICS_MONTHS = 12;
/** Subcontractors shown on the page; the CSV holds every one paid in the window. */
export const TOP_SUBCONTRACTORS = 10;

export type MonthFigures = {
  label: string;
  displayLabel: string;
  grossP: number;
  materialsP: number;
  cisP: number;
  invoices: number;
  statements: { onTime: number; late: number; notIssued: number };
  filing: { state: FilingState; submittedAt: number | null; deadline: number };
};

export type SubcontractorFigures = {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  invoices: number;
  grossP: number;
  materialsP: number;
  cisP: number;
};

/** The last ANALYTICS_MONTHS tax months, oldest first, ending with the one `now` falls in. */
export function analyticsWindow(now: Date): TaxMonth[] {
  const months = [currentTaxMonth(now)];
  while (months.length < ANALYTICS_MONTHS) months.unshift(previousTaxMonth(months[0]!.label));
  return months;
}

/** Paid, not deleted invoices of this tenant in the window: the payments CIS is deducted from. */
function paidInWindow(tenantId: string, window: TaxMonth[]): SQL | undefined {
  return and(
    eq(cisInvoices.tenantId, tenantId),
    gte(cisInvoices.taxMonth, window[0]!.label),
    lte(cisInvoices.taxMonth, window[window.length - 1]!.label),
    isNull(cisInvoices.deletedAt),
    eq(cisInvoices.status, "paid"),
  );
}

/** CASE tax_month WHEN '2026-01' THEN <deadline ms> ...: each month's own statements deadline, from the domain. */
function statementsDeadlineOf(window: TaxMonth[]): SQL {
  return sql`(CASE ${cisStatements.taxMonth} ${sql.join(
    window.map((m) => sql`WHEN ${m.label} THEN ${m.deadlines.statements.getTime()}`),
    sql` `,
  )} END)`;
}

const sumOf = (col: SQLWrapper) => sql<number>`coalesce(sum(${col}), 0)`;

function bySubcontractorQuery(db: Db, tenantId: string, window: TaxMonth[], limit?: number) {
  // The name as the subcontractor record holds it now; the invoices' copy when the record is gone.
  const name = sql<string>`coalesce(max(${cisSubcontractors.name}), max(${cisInvoices.subcontractorName}))`;
  const q = db
    .select({
      subcontractorId: cisInvoices.subcontractorId,
      name,
      utrMasked: sql<string | null>`coalesce(max(${cisSubcontractors.utrMasked}), max(${cisInvoices.utrMasked}))`,
      invoices: count(),
      grossP: sumOf(cisInvoices.grossP),
      materialsP: sumOf(cisInvoices.materialsP),
      cisP: sumOf(cisInvoices.cisDeductionP),
    })
    .from(cisInvoices)
    .leftJoin(cisSubcontractors, and(eq(cisSubcontractors.tenantId, tenantId), eq(cisSubcontractors.id, cisInvoices.subcontractorId)))
    .where(paidInWindow(tenantId, window))
    .groupBy(cisInvoices.subcontractorId)
    .orderBy(desc(sql`sum(${cisInvoices.cisDeductionP})`), desc(sql`sum(${cisInvoices.grossP})`), sql`lower(${name})`, cisInvoices.subcontractorId);
  return limit === undefined ? q : q.limit(limit);
}

function toSubcontractorFigures(r: {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  invoices: number;
  grossP: number;
  materialsP: number;
  cisP: number;
}): SubcontractorFigures {
  return { ...r, invoices: Number(r.invoices), grossP: Number(r.grossP), materialsP: Number(r.materialsP), cisP: Number(r.cisP) };
}

/** A return's filing against its deadline: the first acceptance of the month's original return counts. */
export function filingState(submittedAt: number | null, deadline: Date, now: Date): FilingState {
  if (submittedAt !== null) return submittedAt <= deadline.getTime() ? "on_time" : "late";
  return now.getTime() > deadline.getTime() ? "not_filed" : "open";
}

/** Each month of the window with its paid invoices' sums, its statements against their deadline and its filing. */
function monthFigures(
  window: ReturnType<typeof analyticsWindow>,
  rows: {
    invoices: { taxMonth: string; invoices: number; grossP: unknown; materialsP: unknown; cisP: unknown }[];
    statements: { taxMonth: string; onTime: number; late: number; notIssued: number }[];
    returns: { taxMonth: string; submittedAt: number | null }[];
  },
  now: Date,
): MonthFigures[] {
  return window.map((m) => {
    const inv = rows.invoices.find((r) => r.taxMonth === m.label);
    const st = rows.statements.find((r) => r.taxMonth === m.label);
    const ret = rows.returns.find((r) => r.taxMonth === m.label);
    const submittedAt = ret?.submittedAt === null || ret?.submittedAt === undefined ? null : Number(ret.submittedAt);
    return {
      label: m.label,
      displayLabel: m.displayLabel,
      grossP: Number(inv?.grossP ?? 0),
      materialsP: Number(inv?.materialsP ?? 0),
      cisP: Number(inv?.cisP ?? 0),
      invoices: Number(inv?.invoices ?? 0),
      statements: { onTime: Number(st?.onTime ?? 0), late: Number(st?.late ?? 0), notIssued: Number(st?.notIssued ?? 0) },
      filing: { state: filingState(submittedAt, m.deadlines.filing, now), submittedAt, deadline: m.deadlines.filing.getTime() },
    };
  });
}

/**
 * Every figure of the analytics page in one D1 batch, whatever the tenant's size: the subcontractor
 * base as it stands, and over the last 12 tax months the paid invoices' gross, materials and CIS by
 * month and by subcontractor (top 10), statements issued on time (issued_at against the month's
 * statements deadline), and each month's filing (the original return's submission against the
 * filing deadline). Every query filters by tenant; the grouping happens in D1.
 */
export async function cisAnalytics(env: Env, tenantId: string, now: Date = new Date()) {
  const db = dbFor(env, tenantId);
  const window = analyticsWindow(now);
  const labels = window.map((m) => m.label);
  const current = window[window.length - 1]!;
  const live = and(eq(cisSubcontractors.tenantId, tenantId), isNull(cisSubcontractors.deletedAt));
  const activeLive = and(live, eq(cisSubcontractors.active, true));
  const deadline = statementsDeadlineOf(window);
  const [byStatus, byType, [coverage], [added], monthRows, topRows, statementRows, returnRows] = await db.batch([
    db
      .select({ status: cisSubcontractors.verificationStatus, n: count() })
      .from(cisSubcontractors)
      .where(activeLive)
      .groupBy(cisSubcontractors.verificationStatus),
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
      .where(and(live, gte(cisSubcontractors.createdAt, current.start.getTime()))),
    db
      .select({
        taxMonth: cisInvoices.taxMonth,
        invoices: count(),
        grossP: sumOf(cisInvoices.grossP),
        materialsP: sumOf(cisInvoices.materialsP),
        cisP: sumOf(cisInvoices.cisDeductionP),
      })
      .from(cisInvoices)
      .where(paidInWindow(tenantId, window))
      .groupBy(cisInvoices.taxMonth),
    bySubcontractorQuery(db, tenantId, window, TOP_SUBCONTRACTORS),
    db
      .select({
        taxMonth: cisStatements.taxMonth,
        onTime: sql<number>`coalesce(sum(case when ${cisStatements.issuedAt} <= ${deadline} then 1 else 0 end), 0)`,
        late: sql<number>`coalesce(sum(case when ${cisStatements.issuedAt} > ${deadline} then 1 else 0 end), 0)`,
        notIssued: sql<number>`coalesce(sum(case when ${cisStatements.issuedAt} is null then 1 else 0 end), 0)`,
      })
      .from(cisStatements)
      .where(and(eq(cisStatements.tenantId, tenantId), inArray(cisStatements.taxMonth, labels)))
      .groupBy(cisStatements.taxMonth),
    db
      .select({ taxMonth: cisReturns.taxMonth, submittedAt: sql<number | null>`min(${cisReturns.submittedAt})` })
      .from(cisReturns)
      .where(and(eq(cisReturns.tenantId, tenantId), inArray(cisReturns.taxMonth, labels), isNull(cisReturns.amendmentOf)))
      .groupBy(cisReturns.taxMonth),
  ]);

  const months = monthFigures(window, { invoices: monthRows, statements: statementRows, returns: returnRows }, now);
  const totals = months.reduce(
    (a, m) => ({ grossP: a.grossP + m.grossP, materialsP: a.materialsP + m.materialsP, cisP: a.cisP + m.cisP, invoices: a.invoices + m.invoices }),
    { grossP: 0, materialsP: 0, cisP: 0, invoices: 0 },
  );

  return {
    currentMonth: current.displayLabel,
    subcontractors: {
      byStatus: VERIFICATION_STATUSES.map((s) => ({ status: s, count: byStatus.find((r) => r.status === s)?.n ?? 0 })),
      byType: SUBCONTRACTOR_TYPES.map((t) => ({ type: t, count: byType.find((r) => r.type === t)?.n ?? 0 })),
      active: coverage?.active ?? 0,
      verified: Number(coverage?.verified ?? 0),
      withEmail: Number(coverage?.withEmail ?? 0),
      addedThisTaxMonth: added?.n ?? 0,
    },
    months,
    totals,
    topSubcontractors: topRows.map(toSubcontractorFigures),
  };
}

export type CisAnalytics = Awaited<ReturnType<typeof cisAnalytics>>;

export const SUBCONTRACTOR_EXPORT_HEADER = ["Subcontractor", "UTR", "Invoices", "Gross", "Materials", "CIS Deducted", "Materials Share"] as const;

/** cis-analytics-subcontractors-2026-05-19.csv, dated in London. */
export function subcontractorExportFileName(now: Date = new Date()): string {
  return `cis-analytics-subcontractors-${formatInTimeZone(now, LONDON, "yyyy-MM-dd")}.csv`;
}

export type SubcontractorExportResult = Result<{ fileName: string; body: string; rows: number }, "empty">;

/**
 * Every subcontractor paid in the analytics window, by CIS deducted (the page shows the first 10):
 * amounts in pounds with two decimals, UTR masked, every cell neutralised against formula
 * injection. One row per subcontractor, so the file stays small whatever the invoice count. The
 * audit entry (window, row count) is written before any data leaves.
 */
export async function exportSubcontractorAnalytics(
  env: Env,
  tenantId: string,
  actor: Actor,
  opts: { ip?: string | null; now?: Date } = {},
): Promise<SubcontractorExportResult> {
  const now = opts.now ?? new Date();
  const db = dbFor(env, tenantId);
  const window = analyticsWindow(now);
  const rows = (await bySubcontractorQuery(db, tenantId, window)).map(toSubcontractorFigures);
  if (rows.length === 0) return { ok: false, code: "empty" };
  const body = toCsv(
    SUBCONTRACTOR_EXPORT_HEADER,
    rows.map((r) => [
      r.name,
      r.utrMasked ?? "",
      r.invoices,
      penceToPoundsString(r.grossP),
      penceToPoundsString(r.materialsP),
      penceToPoundsString(r.cisP),
      materialsShare(r.materialsP, r.grossP),
    ]),
  );
  await auditInsert(db, {
    tenantId,
    action: "cis.export.analytics",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "analytics",
    payload: { format: "csv", rows: rows.length, from: window[0]!.label, to: window[window.length - 1]!.label },
    ip: opts.ip ?? null,
  });
  return { ok: true, fileName: subcontractorExportFileName(now), body, rows: rows.length };
}
