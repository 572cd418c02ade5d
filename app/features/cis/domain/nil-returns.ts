/**
 * Nil returns. From the tax month starting 6 April 2026 a contractor whose business includes
 * construction operations must make a return for a tax month in which it made no contract payments
 * (a nil return), by the same filing date as any return (14 days after the month ends: the 19th),
 * unless it told HMRC, no later than 14 days before that month started, that it would make no
 * payments in it. Before that month nil returns are optional.
 *
 * A notice is either the inactivity declaration on a CIS300 (it covers the six tax months after
 * the return's month) or one given to HMRC another way (a first month and a number of months). It
 * counts only for the months it was given in time for: a declaration filed on 10 May covers the
 * month starting 6 June (deadline for notice 23 May) but not the one starting 6 May.
 */
import { isTaxMonthLabel, nextTaxMonth } from "./tax-month";

/** The first tax month ('YYYY-MM') for which a month without payments needs a return. */
export const NIL_RETURNS_REQUIRED_FROM = "2026-04";
/** How many days before a tax month starts a notice of no payments must be given, at the latest. */
export const NO_PAYMENTS_NOTICE_DAYS = 14;
/** How many months the inactivity declaration on a CIS300 covers (the ones after the return's month). */
export const INACTIVITY_DECLARATION_MONTHS = 6;

export interface NoPaymentsNotice {
  /** The London calendar date the notice was given, 'YYYY-MM-DD'. */
  givenOn: string;
  /** The first tax month it speaks for, 'YYYY-MM'. */
  firstMonth: string;
  /** How many tax months from firstMonth it speaks for (at least 1). */
  months: number;
}

/** The last London calendar date on which a notice of no payments can be given for a tax month. */
export function lastDayForNotice(taxMonthLabel: string): string {
  if (!isTaxMonthLabel(taxMonthLabel)) throw new RangeError(`Not a tax month: ${taxMonthLabel}`);
  // The month starts on the 6th; count back in plain calendar days (no clock involved).
  const start = Date.UTC(Number(taxMonthLabel.slice(0, 4)), Number(taxMonthLabel.slice(5, 7)) - 1, 6);
  return new Date(start - NO_PAYMENTS_NOTICE_DAYS * 86_400_000).toISOString().slice(0, 10);
}

/** The notice a CIS300's inactivity declaration gives: the six months after the return's month. */
export function noticeFromInactivityDeclaration(returnMonth: string, declaredOn: string): NoPaymentsNotice {
  return { givenOn: declaredOn, firstMonth: nextTaxMonth(returnMonth).label, months: INACTIVITY_DECLARATION_MONTHS };
}

/** Whether a notice speaks for the month and was given in time for it. */
export function noticeCovers(notice: NoPaymentsNotice, taxMonthLabel: string): boolean {
  if (!isTaxMonthLabel(notice.firstMonth) || notice.months < 1) return false;
  let month = notice.firstMonth;
  for (let i = 0; i < notice.months; i++) {
    if (month === taxMonthLabel) return notice.givenOn <= lastDayForNotice(taxMonthLabel);
    month = nextTaxMonth(month).label;
  }
  return false;
}

export type ReturnNeed = "return" | "nil_return" | "none_notice_given" | "none_optional";

/**
 * What a tax month needs: a return (payments were made), a nil return (none were made, the month is
 * from 6 April 2026, and no notice covers it), nothing because a notice covers it, or nothing
 * because nil returns were optional then.
 */
export function returnNeed(taxMonthLabel: string, payments: number, notices: readonly NoPaymentsNotice[]): ReturnNeed {
  if (payments > 0) return "return";
  if (taxMonthLabel < NIL_RETURNS_REQUIRED_FROM) return "none_optional";
  return notices.some((n) => noticeCovers(n, taxMonthLabel)) ? "none_notice_given" : "nil_return";
}
