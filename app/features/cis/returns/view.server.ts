import { formatDateTime, formatLongDate } from "~/utils/dates";
import { formatPence, taxMonthFromLabel, type DueReturn } from "../domain";
import { RETURN_STATUS_LABELS } from "./return-codes";
import type { ReturnLineRow, ReturnRow } from "./returns.server";

export type ReturnLineView = {
  subcontractorId: string;
  name: string;
  utrMasked: string;
  ninoMasked: string;
  gross: string;
  materials: string;
  cis: string;
  cisRate: number;
  invoiceCount: number;
  statementsIssued: boolean;
};

export type ReturnView = {
  id: string;
  taxMonth: string;
  periodDisplay: string;
  status: ReturnRow["status"];
  statusLabel: string;
  locked: boolean;
  amendmentOf: string | null;
  totals: { subcontractors: number; invoices: number; gross: string; materials: string; cis: string };
  filingDeadline: string;
  paymentDeadline: string;
  compiledAt: string;
  submittedAt: string | null;
  submissionRef: string | null;
  /** The IRmark of the message HMRC accepted (locked returns). */
  irmark: string | null;
  issues: string[];
  lines: ReturnLineView[];
  /** Lines not shown (history shows the first few; Export CSV has all). */
  moreLines: number;
};

function periodOf(label: string): string {
  try {
    return taxMonthFromLabel(label).displayLabel;
  } catch {
    return "Unknown Period";
  }
}

/** A stored return as the page shows it: pounds, en-GB London dates, masked identifiers. */
export function returnView(row: ReturnRow, lines: readonly ReturnLineRow[], shownLimit = Infinity): ReturnView {
  const shown = lines.slice(0, shownLimit);
  return {
    id: row.id,
    taxMonth: row.taxMonth,
    periodDisplay: periodOf(row.taxMonth),
    status: row.status,
    statusLabel: RETURN_STATUS_LABELS[row.status] ?? row.status,
    locked: row.locked,
    amendmentOf: row.amendmentOf,
    totals: {
      subcontractors: row.subcontractorCount,
      invoices: row.invoiceCount,
      gross: formatPence(row.grossP),
      materials: formatPence(row.materialsP),
      cis: formatPence(row.cisDeductedP),
    },
    filingDeadline: formatLongDate(row.filingDeadline),
    paymentDeadline: formatLongDate(row.paymentDeadline),
    compiledAt: formatDateTime(row.compiledAt),
    submittedAt: row.submittedAt === null ? null : formatDateTime(row.submittedAt),
    submissionRef: row.submissionRef,
    irmark: row.irmark,
    issues: row.issues,
    lines: shown.map((l) => ({
      subcontractorId: l.subcontractorId,
      name: l.name,
      utrMasked: l.utrMasked ?? "N/A",
      ninoMasked: l.ninoMasked ?? "N/A",
      gross: formatPence(l.grossP),
      materials: formatPence(l.materialsP),
      cis: formatPence(l.cisDeductedP),
      cisRate: l.cisRate,
      invoiceCount: l.invoiceCount,
      statementsIssued: l.statementsIssued,
    })),
    moreLines: Math.max(0, row.subcontractorCount - shown.length),
  };
}

export type OverdueReturnView = { taxMonth: string; period: string; dueDate: string; daysOverdue: number; overdueText: string; href: string };

/** An overdue return as the returns page and the dashboard list it, linking to the month on the returns page. */
export function overdueReturnView(d: DueReturn): OverdueReturnView {
  return {
    taxMonth: d.taxMonth,
    period: d.displayLabel,
    dueDate: formatLongDate(d.deadline),
    daysOverdue: d.daysOverdue,
    overdueText: `${d.daysOverdue} day${d.daysOverdue === 1 ? "" : "s"} overdue`,
    href: `/cis/returns?month=${d.taxMonth}`,
  };
}
