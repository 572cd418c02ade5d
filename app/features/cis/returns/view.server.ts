import { formatDateTime, formatLongDate } from "~/utils/dates";
import { formatPence, returnIssueRef, taxMonthFromLabel, type DueReturn, type ReturnIssueCode } from "../domain";
import { irmarkAsOnReceipt } from "../domain/xml/base32";
import { penaltiesView, type PenaltiesView } from "./penalties-view";
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
  /** Whether the payment and deduction statements this line needs were given. */
  statements: "Issued" | "Not issued" | "Not needed";
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

/**
 * A statement is owed for a month's payments from which CIS was deducted. A line paid gross (no
 * deduction) owes none: "Not needed", unless one was given anyway.
 */
function statementsOfLine(l: ReturnLineRow): ReturnLineView["statements"] {
  if (l.cisDeductedP > 0) return l.statementsIssued ? "Issued" : "Not issued";
  return l.lastStatementDate ? "Issued" : "Not needed";
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
    // HMRC's receipt quotes the IRmark in base32 and the gateway's reference is that same mark:
    // shown once, as on the receipt.
    submissionRef: row.irmark && row.submissionRef === irmarkAsOnReceipt(row.irmark) ? null : row.submissionRef,
    irmark: row.irmark ? irmarkAsOnReceipt(row.irmark) : null,
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
      statements: statementsOfLine(l),
    })),
    moreLines: Math.max(0, row.subcontractorCount - shown.length),
  };
}

export type OverdueReturnView = {
  taxMonth: string;
  period: string;
  dueDate: string;
  daysOverdue: number;
  overdueText: string;
  href: string;
  /** No payments were made in the month: the missing return is a nil return. */
  nil: boolean;
  penalties: PenaltiesView | null;
};

/** An overdue return as the returns page and the dashboard list it, linking to the month on the returns page, with its penalties at `now`. */
export function overdueReturnView(d: DueReturn, now: Date): OverdueReturnView {
  return {
    taxMonth: d.taxMonth,
    period: d.displayLabel,
    dueDate: formatLongDate(d.deadline),
    daysOverdue: d.daysOverdue,
    overdueText: `${d.daysOverdue} day${d.daysOverdue === 1 ? "" : "s"} overdue`,
    href: `/cis/returns?month=${d.taxMonth}`,
    nil: d.nil,
    penalties: penaltiesView(d.taxMonth, d.deductionsP, { now, filedAt: null }),
  };
}

export type ReturnIssueView = {
  text: string;
  code: ReturnIssueCode;
  /** Where the issue is fixed. */
  links: { label: string; href: string }[];
  /** A word on how, when the link alone does not say it. */
  note: string | null;
};

/**
 * The return's issues with where each is fixed: a statement not issued links to that
 * subcontractor's statement for the month (and, without an e-mail address, says to print it or
 * issue it through the portal, and links to the subcontractor to add one); a line's amounts link
 * to the subcontractor; totals are fixed by recompiling. `lines` are the lines the page loaded.
 */
export function returnIssueViews(ret: ReturnRow, lines: readonly ReturnLineRow[], hasEmail: Readonly<Record<string, boolean>>): ReturnIssueView[] {
  const byPosition = new Map(lines.map((l) => [l.position, l]));
  return ret.issues.map((text) => {
    const { code, line } = returnIssueRef(text);
    const row = line === null ? undefined : byPosition.get(line - 1);
    const sub = row ? encodeURIComponent(row.subcontractorId) : null;
    switch (code) {
      case "statement_not_issued": {
        const statements = `/cis/statements?month=${ret.taxMonth}`;
        if (!sub) return { text, code, links: [{ label: "Open statements", href: statements }], note: null };
        // `sub` opens the page of the statements list that holds this subcontractor.
        const links = [{ label: "Issue the statement", href: `${statements}&sub=${sub}#statement-${sub}` }];
        if (hasEmail[row!.subcontractorId]) return { text, code, links, note: null };
        links.push({ label: "Add an e-mail address", href: `/cis/subcontractors/${sub}/edit` });
        return { text, code, links, note: "No e-mail address: print the statement or issue it through the portal, or add an e-mail address." };
      }
      case "line_amounts":
        return {
          text,
          code,
          links: sub ? [{ label: "Open the subcontractor", href: `/cis/subcontractors/${sub}` }] : [],
          note: "Correct the invoices, then recompile.",
        };
      case "totals":
      case "no_lines":
      case "other":
        return { text, code, links: [], note: "Recompile the return." };
    }
  });
}
