import { returnNeed, type NoPaymentsNotice } from "./nil-returns";
import { deadlineIndicator, isTaxMonthLabel, previousTaxMonth, taxMonthOf, taxMonthOfDate, type TaxMonth } from "./tax-month";

/** How many tax months back the overdue list looks (older ones are history, not a to-do list). */
export const OVERDUE_RETURNS_LOOKBACK_MONTHS = 12;

/** What happened in one tax month, as far as deciding whether it needs a return. */
export interface MonthActivity {
  taxMonth: string;
  /** Paid invoices (payments to subcontractors) in the month. */
  payments: number;
}

/**
 * Whether a tax month needs a CIS300 return: when payments were made to subcontractors in it, or,
 * from the tax month starting 6 April 2026, when none were and no notice of no payments given in
 * time covers it (a nil return).
 */
export function monthNeedsReturn(activity: MonthActivity, notices: readonly NoPaymentsNotice[] = []): boolean {
  const need = returnNeed(activity.taxMonth, activity.payments, notices);
  return need === "return" || need === "nil_return";
}

/**
 * Paid invoices counted by the tax month they were labelled with and the one their payment date falls
 * in. A group without a payment date counts in its labelled month only (figures already by month).
 */
export interface PaidInvoiceGroup {
  taxMonth: string | null;
  /** 'YYYY-MM-DD', a London calendar date. */
  paymentDate?: string | null;
  count: number;
  /** The CIS deducted on those invoices, in pence (what a tax-geared late-filing penalty is a share of). */
  deductionsP?: number;
}

export interface ReturnsDueInput {
  now: Date;
  /** When the tenant started (CIS settings created, first invoice): no return is owed for months before its tax month. */
  firstActivityAt: Date | null;
  paidInvoices: readonly PaidInvoiceGroup[];
  /** Tax months with a return HMRC has (submitted, a nil return filed, or an accepted amendment). */
  filedMonths: Iterable<string>;
  /** Notices of no payments given to HMRC: a month one covers needs no nil return. */
  notices?: readonly NoPaymentsNotice[];
  lookbackMonths?: number;
  needsReturn?: (activity: MonthActivity) => boolean;
}

export interface DueReturn {
  taxMonth: string;
  displayLabel: string;
  /** The filing deadline: 19th after the month ends, 23:59:59 London. */
  deadline: Date;
  daysOverdue: number;
  /** True when no payments were made in the month: what is missing is a nil return. */
  nil: boolean;
  /** The CIS deducted on the month's paid invoices, in pence. */
  deductionsP: number;
}

/** Payments per tax month: an invoice counts in the month it is labelled with and in the month of its payment date. */
export function paymentsByMonth(groups: readonly PaidInvoiceGroup[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) {
    const months = new Set<string>();
    if (g.taxMonth && isTaxMonthLabel(g.taxMonth)) months.add(g.taxMonth);
    if (g.paymentDate) {
      try {
        months.add(taxMonthOfDate(g.paymentDate).label);
      } catch {
        // An unreadable payment date leaves the label alone to decide.
      }
    }
    for (const m of months) out.set(m, (out.get(m) ?? 0) + g.count);
  }
  return out;
}

/** CIS deducted per tax month, counted the way `paymentsByMonth` counts invoices. */
export function deductionsByMonth(groups: readonly PaidInvoiceGroup[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) {
    const months = new Set<string>();
    if (g.taxMonth && isTaxMonthLabel(g.taxMonth)) months.add(g.taxMonth);
    if (g.paymentDate) {
      try {
        months.add(taxMonthOfDate(g.paymentDate).label);
      } catch {
        // As in paymentsByMonth.
      }
    }
    for (const m of months) out.set(m, (out.get(m) ?? 0) + (g.deductionsP ?? 0));
  }
  return out;
}

/**
 * The overdue returns at `now`, newest first: tax months whose filing deadline (the 19th after the
 * month ends, end of day in London) has passed, that need a return (`needsReturn`, by default:
 * payments were made, or none were from 6 April 2026 and no notice covers the month) and have none
 * filed. Only the `lookbackMonths` months before the current one
 * are looked at, and none before the month of the tenant's first activity.
 */
export function returnsDue(input: ReturnsDueInput): DueReturn[] {
  const { now } = input;
  const lookback = input.lookbackMonths ?? OVERDUE_RETURNS_LOOKBACK_MONTHS;
  const notices = input.notices ?? [];
  const needs = input.needsReturn ?? ((a: MonthActivity) => monthNeedsReturn(a, notices));
  const filed = new Set(input.filedMonths);
  const payments = paymentsByMonth(input.paidInvoices);
  const deductions = deductionsByMonth(input.paidInvoices);
  const firstMonth = input.firstActivityAt ? taxMonthOf(input.firstActivityAt).label : null;

  const due: DueReturn[] = [];
  let tm: TaxMonth = taxMonthOf(now);
  for (let i = 0; i < lookback; i++) {
    tm = previousTaxMonth(tm.label);
    if (firstMonth !== null && tm.label < firstMonth) break;
    const deadline = tm.deadlines.filing;
    if (now.getTime() <= deadline.getTime()) continue;
    if (filed.has(tm.label)) continue;
    const paid = payments.get(tm.label) ?? 0;
    if (!needs({ taxMonth: tm.label, payments: paid })) continue;
    due.push({
      taxMonth: tm.label,
      displayLabel: tm.displayLabel,
      deadline,
      daysOverdue: deadlineIndicator(deadline, now).days,
      nil: paid === 0,
      deductionsP: deductions.get(tm.label) ?? 0,
    });
  }
  return due;
}
