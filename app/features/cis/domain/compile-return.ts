import { isCisRate, type CisRate } from "./calculation";
import { validateReturn } from "./return-validation";
import { taxMonthFromLabel, taxMonthOfDate, type TaxMonth } from "./tax-month";
import type { CisReturn, DateLike, InvoiceRecord, ReturnLine, StatementRecord, SubcontractorRecord } from "./types";

export interface CompileReturnInput {
  taxMonth: string | TaxMonth;
  invoices: readonly InvoiceRecord[];
  subcontractors: readonly SubcontractorRecord[];
  statements: readonly StatementRecord[];
}

export interface CompiledReturn extends CisReturn {
  id: string;
  period: NonNullable<CisReturn["period"]>;
  deadlines: NonNullable<CisReturn["deadlines"]>;
  locked: false;
  /** validateReturn's issues for the compiled return ([] when ready or nil). */
  issues: string[];
}

function toInstant(value: DateLike | null | undefined): Date | null {
  if (value === null || value === undefined || value === "") return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

function paidInMonth(invoice: InvoiceRecord, label: string): boolean {
  if (invoice.status !== "paid") return false;
  if (invoice.deletedAt || invoice.archived) return false;
  // A payment to a public body from 6 April 2026 is not a contract payment: it has no place on a return.
  if (invoice.outsideCis) return false;
  if (invoice.taxMonth === label) return true;
  if (!invoice.paymentDate) return false;
  try {
    return taxMonthOfDate(invoice.paymentDate).label === label;
  } catch {
    return false;
  }
}

function sortKey(invoice: InvoiceRecord): number {
  return toInstant(invoice.paymentDate ?? null)?.getTime() ?? 0;
}

/**
 * One line per subcontractor from the paid
 * invoices of the month. Status is 'nil' without lines, 'ready' when the
 * compiled return passes validateReturn, otherwise 'draft'.
 */
export function compileReturn(input: CompileReturnInput): CompiledReturn {
  const tm = typeof input.taxMonth === "string" ? taxMonthFromLabel(input.taxMonth) : input.taxMonth;
  const label = tm.label;
  const subsById = new Map(input.subcontractors.map((s) => [s.id, s]));

  const bySub = new Map<string, InvoiceRecord[]>();
  for (const invoice of input.invoices) {
    const subId = invoice.subcontractorId;
    if (!subId) continue;
    if (!paidInMonth(invoice, label)) continue;
    const list = bySub.get(subId) ?? [];
    list.push(invoice);
    bySub.set(subId, list);
  }

  const issuedStatements = input.statements.filter((s) => s.taxMonth === label && s.status === "issued");

  const lines: ReturnLine[] = [];
  for (const [subId, invoices] of bySub) {
    const sub = subsById.get(subId);
    // The latest payment decides the rate and reference shown on the line.
    const latest = [...invoices].sort((a, b) => sortKey(b) - sortKey(a))[0]!;
    const subStatements = issuedStatements.filter((s) => s.subcontractorId === subId);
    // Judged per invoice: an issued statement for the month does not cover an invoice that still
    // needs one of its own (paid after that statement was issued, or never put on it).
    const statementsIssued = invoices.every((inv) => !inv.statement?.required || Boolean(toInstant(inv.statement.issuedAt)));

    const issuedTimes = [...subStatements.map((s) => toInstant(s.issuedAt)), ...invoices.map((inv) => toInstant(inv.statement?.issuedAt))].filter(
      (d): d is Date => d !== null,
    );
    const lastStatement = issuedTimes.length ? new Date(Math.max(...issuedTimes.map((d) => d.getTime()))) : null;

    const snapshotRate = latest.verificationSnapshot?.rate;
    const cisRate: CisRate = isCisRate(snapshotRate) ? snapshotRate : isCisRate(sub?.verification?.rate) ? sub.verification.rate : 20;

    lines.push({
      subcontractorId: subId,
      name: sub?.name ?? latest.subcontractorName ?? "Unknown subcontractor",
      utrMasked: sub?.utrMasked ?? latest.piiMasked?.utrMasked ?? null,
      ninoMasked: sub?.ninoMasked ?? latest.piiMasked?.ninoMasked ?? null,
      grossP: sum(invoices, (i) => i.amounts.grossP),
      materialsP: sum(invoices, (i) => i.amounts.materialsP),
      cisDeductedP: sum(invoices, (i) => i.amounts.cisDeductionP),
      cisRate,
      invoiceCount: invoices.length,
      verificationRef: latest.verificationSnapshot?.reference ?? sub?.verification?.reference ?? null,
      statementsIssued,
      lastStatementDate: lastStatement ? lastStatement.toISOString() : null,
    });
  }
  lines.sort((a, b) => a.name.localeCompare(b.name, "en-GB") || a.subcontractorId.localeCompare(b.subcontractorId));

  const compiled: CompiledReturn = {
    id: label,
    taxMonth: label,
    period: { taxMonth: label, startDate: tm.start, endDate: tm.end, label, displayLabel: tm.displayLabel },
    deadlines: { filing: tm.deadlines.filing, payment: tm.deadlines.payment, statements: tm.deadlines.statements },
    totals: {
      subcontractors: lines.length,
      invoices: sum(lines, (l) => l.invoiceCount),
      grossP: sum(lines, (l) => l.grossP),
      materialsP: sum(lines, (l) => l.materialsP),
      cisDeductedP: sum(lines, (l) => l.cisDeductedP),
    },
    lines,
    status: lines.length === 0 ? "nil" : "draft",
    locked: false,
    issues: [],
  };
  if (lines.length > 0) {
    const validation = validateReturn(compiled);
    compiled.status = validation.valid ? "ready" : "draft";
    compiled.issues = validation.issues;
  }
  return compiled;
}

function sum<T>(items: readonly T[], pick: (item: T) => number): number {
  return items.reduce((acc, item) => acc + pick(item), 0);
}
