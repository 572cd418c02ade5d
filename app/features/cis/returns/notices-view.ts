import { formatLongDate } from "~/utils/dates";
// Module by module, not the domain's index: the returns page's client bundle imports this file.
import { lastDayForNotice, noticeCovers, returnNeed, type NoPaymentsNotice, type ReturnNeed } from "../domain/nil-returns";
import { nextTaxMonth, previousTaxMonth, taxMonthFromLabel, taxMonthOf } from "../domain/tax-month";
import type { NoticeRow } from "./notices.server";

/** A London calendar date 'YYYY-MM-DD' as a long en-GB date ('23 May 2026'). */
function longDay(day: string): string {
  return formatLongDate(`${day}T12:00:00Z`);
}

/** 'June 2026' for the tax month '2026-06' (the month it starts in). */
export function taxMonthShortName(label: string): string {
  const tm = taxMonthFromLabel(label);
  return formatLongDate(tm.start).replace(/^\d+ /, "");
}

export type NoticeView = {
  id: string;
  givenOn: string;
  /** 'June 2026 to November 2026', or one month's name. */
  covers: string;
  source: string;
  /** Given another way, and the viewer may record notices: it can be corrected or deleted. */
  editable: boolean;
  /** An accepted return's inactivity declaration: what HMRC was told, kept as it was. */
  declaration: boolean;
};

export function noticeView(row: NoticeRow, canChange = false): NoticeView {
  let last = row.firstMonth;
  for (let i = 1; i < row.months; i++) last = nextTaxMonth(last).label;
  const first = taxMonthShortName(row.firstMonth);
  return {
    id: row.id,
    givenOn: longDay(row.givenOn),
    covers: row.months > 1 ? `${first} to ${taxMonthShortName(last)}` : first,
    source: row.source === "cis300" ? `Inactivity declaration on return ${row.returnId ?? ""}`.trim() : "Given to HMRC another way",
    editable: canChange && row.source === "other",
    declaration: row.source === "cis300",
  };
}

export type MonthNeedView = { kind: ReturnNeed; text: string };

/**
 * What the shown month needs while it has no return: a nil return (no payments, from April 2026,
 * no notice given in time), nothing because a notice covers it, or nothing because nil returns
 * were optional then. Null when payments were made (a return is compiled as usual).
 */
export function monthNeedView(taxMonth: string, payments: number, rows: readonly NoticeRow[]): MonthNeedView | null {
  const notices: NoPaymentsNotice[] = rows.map((r) => ({ givenOn: r.givenOn, firstMonth: r.firstMonth, months: r.months }));
  const kind = returnNeed(taxMonth, payments, notices);
  const deadline = formatLongDate(taxMonthFromLabel(taxMonth).deadlines.filing);
  switch (kind) {
    case "return":
      return null;
    case "nil_return":
      return {
        kind,
        text: `No payments to subcontractors this month: a nil return is due by ${deadline}, unless HMRC was told by ${longDay(lastDayForNotice(taxMonth))} that none would be made.`,
      };
    case "none_notice_given": {
      const notice = notices.find((n) => noticeCovers(n, taxMonth))!;
      return { kind, text: `Covered by the notice of no payments given on ${longDay(notice.givenOn)}: no return is needed unless payments are made.` };
    }
    case "none_optional":
      return { kind, text: "No payments to subcontractors this month: a nil return is optional for months before 6 April 2026." };
  }
}

/** The tax months a notice may start from: six before the current one to twelve after, oldest first. */
export function noticeMonthOptions(now: Date): { value: string; label: string }[] {
  let tm = taxMonthOf(now);
  for (let i = 0; i < 6; i++) tm = previousTaxMonth(tm.label);
  const out: { value: string; label: string }[] = [];
  for (let i = 0; i < 19; i++) {
    out.push({ value: tm.label, label: tm.displayLabel });
    tm = nextTaxMonth(tm.label);
  }
  return out;
}
