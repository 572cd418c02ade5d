import { and, count, desc, eq, lt, or, type SQL } from "drizzle-orm";
import { formatInTimeZone } from "date-fns-tz";
import { dbFor } from "~/db/client.server";
import { cisInvoices } from "~/db/schema";
import { auditInsert } from "~/features/platform/index.server";
import { CSV_BOM, csvRow } from "~/utils/csv";
import { formatDate, LONDON } from "~/utils/dates";
import { penceToPoundsString } from "../domain";
import type { Actor } from "~/features/auth";
import { INVOICE_STATUS_LABELS } from "./components/invoice-status";
import { invoiceFilter, type InvoiceListQuery } from "./queries.server";
import type { Err, Result } from "~/utils/result";

export const INVOICE_EXPORT_HEADER = ["Invoice Number", "Subcontractor", "Date", "Gross", "Materials", "CIS", "Net", "Status"] as const;

/** Rows read per query: each read stays small whatever the tenant's size. */
export const INVOICE_EXPORT_CHUNK = 500;

/**
 * The most rows one download may hold. The file is assembled in memory before it is sent (so
 * the audit entry names the exact row count before any data leaves), and this bounds that
 * memory at about a megabyte. Larger selections are refused with a request to narrow the
 * filters, never cut short silently.
 */
export const INVOICE_EXPORT_MAX_ROWS = 10_000;

/** cis-invoices-2026-05-19.csv, dated in London. */
export function invoiceExportFileName(now: Date = new Date()): string {
  return `cis-invoices-${formatInTimeZone(now, LONDON, "yyyy-MM-dd")}.csv`;
}

const exportColumns = {
  id: cisInvoices.id,
  invoiceNumber: cisInvoices.invoiceNumber,
  subcontractorName: cisInvoices.subcontractorName,
  invoiceDate: cisInvoices.invoiceDate,
  grossP: cisInvoices.grossP,
  materialsP: cisInvoices.materialsP,
  cisDeductionP: cisInvoices.cisDeductionP,
  netPaymentP: cisInvoices.netPaymentP,
  status: cisInvoices.status,
};
type ExportRow = { [K in keyof typeof exportColumns]: (typeof cisInvoices.$inferSelect)[K] };

/** One CSV line: amounts in pounds with two decimals, the date in en-GB, the status as the list words it. */
export function invoiceExportLine(r: Omit<ExportRow, "id">): string {
  return csvRow([
    r.invoiceNumber,
    r.subcontractorName,
    formatDate(r.invoiceDate),
    penceToPoundsString(r.grossP),
    penceToPoundsString(r.materialsP),
    penceToPoundsString(r.cisDeductionP),
    penceToPoundsString(r.netPaymentP),
    INVOICE_STATUS_LABELS[r.status],
  ]);
}

type ExportFilters = Pick<InvoiceListQuery, "q" | "status" | "period">;

/**
 * Pages through the filtered invoices in the list's order (newest invoice date first, then id)
 * by keyset, so each query reads at most `chunk` rows off the (tenant, deleted, date, id) index
 * and no row is skipped or repeated between pages. Stops after `max` rows.
 */
export async function* invoiceExportChunks(
  env: Env,
  tenantId: string,
  query: ExportFilters,
  opts: { chunk?: number; max?: number; now?: Date } = {},
): AsyncGenerator<ExportRow[]> {
  const chunk = opts.chunk ?? INVOICE_EXPORT_CHUNK;
  let left = opts.max ?? INVOICE_EXPORT_MAX_ROWS;
  const db = dbFor(env, tenantId);
  const where = invoiceFilter(tenantId, query, opts.now);
  let after: { invoiceDate: string; id: string } | null = null;
  while (left > 0) {
    const cursor: SQL | undefined = after
      ? or(lt(cisInvoices.invoiceDate, after.invoiceDate), and(eq(cisInvoices.invoiceDate, after.invoiceDate), lt(cisInvoices.id, after.id)))
      : undefined;
    const rows: ExportRow[] = await db
      .select(exportColumns)
      .from(cisInvoices)
      .where(and(where, cursor))
      .orderBy(desc(cisInvoices.invoiceDate), desc(cisInvoices.id))
      .limit(Math.min(chunk, left));
    if (rows.length === 0) return;
    yield rows;
    left -= rows.length;
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1];
    after = { invoiceDate: last.invoiceDate, id: last.id };
  }
}

export type InvoiceExportResult = Result<{ fileName: string; body: string; rowCount: number }, "empty"> | Err<"too_many", { total: number; max: number }>;

/**
 * The CSV of the invoices the list's filters select (BOM, header, one line per invoice), with
 * its cis.export.invoices audit entry. Nothing is written when the filters match no invoice or
 * more than `max`: the count is read first, so an oversized export is refused before any row
 * is read.
 */
export async function exportInvoices(
  env: Env,
  tenantId: string,
  query: ExportFilters,
  actor: Actor,
  opts: { ip?: string | null; now?: Date; chunk?: number; max?: number } = {},
): Promise<InvoiceExportResult> {
  const max = opts.max ?? INVOICE_EXPORT_MAX_ROWS;
  const db = dbFor(env, tenantId);
  const [{ total }] = await db
    .select({ total: count() })
    .from(cisInvoices)
    .where(invoiceFilter(tenantId, query, opts.now));
  if (total === 0) return { ok: false, code: "empty" };
  if (total > max) return { ok: false, code: "too_many", total, max };

  const parts: string[] = [CSV_BOM, csvRow(INVOICE_EXPORT_HEADER)];
  let rowCount = 0;
  for await (const rows of invoiceExportChunks(env, tenantId, query, { chunk: opts.chunk, max, now: opts.now })) {
    for (const r of rows) parts.push(invoiceExportLine(r));
    rowCount += rows.length;
  }
  // Everything matched may have been deleted between the count and the read.
  if (rowCount === 0) return { ok: false, code: "empty" };
  await auditInsert(db, {
    tenantId,
    action: "cis.export.invoices",
    actorId: actor.id,
    actorEmail: actor.email,
    targetType: "invoice",
    payload: { entity: "invoices", format: "csv", rowCount, filters: { q: query.q, status: query.status, period: query.period } },
    ip: opts.ip ?? null,
  });
  return { ok: true, fileName: invoiceExportFileName(opts.now), body: parts.join(""), rowCount };
}
