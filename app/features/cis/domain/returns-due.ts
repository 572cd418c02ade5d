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
 * Whether a tax month needs a CIS300 return: today, when payments were made to subcontractors in
 * it. (Months without payments are the place to extend this rule, e.g. for nil returns.)
 */
export function monthNeedsReturn(activity: MonthActivity): boolean {
  return activity.payments > 0;
}

/** Paid invoices counted by the tax month they were labelled with and the one their payment date falls in. */
export interface PaidInvoiceGroup {
  taxMonth: string | null;
  /** 'YYYY-MM-DD', a London calendar date. */
  paymentDate: string | null;
  count: number;
}

export interface ReturnsDueInput {
  now: Date;
  /** When the tenant started (CIS settings created, first invoice): no return is owed for months before its tax month. */
  firstActivityAt: Date | null;
  paidInvoices: readonly PaidInvoiceGroup[];
  /** Tax months with a return HMRC has (submitted, a nil return filed, or an accepted amendment). */
  filedMonths: Iterable<string>;
  lookbackMonths?: number;
  needsReturn?: (activity: MonthActivity) => boolean;
}

export interface DueReturn {
  taxMonth: string;
  displayLabel: string;
  /** The filing deadline: 19th after the month ends, 23:59:59 London. */
  deadline: Date;
  daysOverdue: number;
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

/**
 * The overdue returns at `now`, newest first: tax months whose filing deadline (the 19th after the
 * month ends, end of day in London) has passed, that need a return (`needsReturn`, by default:
 * payments were made) and have none filed. Only the `lookbackMonths` months before the current one
 * are looked at, and none before the month of the tenant's first activity.
 */
export function returnsDue(input: ReturnsDueInput): DueReturn[] {
  const { now } = input;
  const lookback = input.lookbackMonths ?? OVERDUE_RETURNS_LOOKBACK_MONTHS;
  const needs = input.needsReturn ?? monthNeedsReturn;
  const filed = new Set(input.filedMonths);
  const payments = paymentsByMonth(input.paidInvoices);
  const firstMonth = input.firstActivityAt ? taxMonthOf(input.firstActivityAt).label : null;

  const due: DueReturn[] = [];
  let tm: TaxMonth = taxMonthOf(now);
  for (let i = 0; i < lookback; i++) {
    tm = previousTaxMonth(tm.label);
    if (firstMonth !== null && tm.label < firstMonth) break;
    const deadline = tm.deadlines.filing;
    if (now.getTime() <= deadline.getTime()) continue;
    if (filed.has(tm.label)) continue;
    if (!needs({ taxMonth: tm.label, payments: payments.get(tm.label) ?? 0 })) continue;
    due.push({ taxMonth: tm.label, displayLabel: tm.displayLabel, deadline, daysOverdue: deadlineIndicator(deadline, now).days });
  }
  return due;
}
