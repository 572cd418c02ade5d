import { formatLongDate } from "~/utils/dates";
// Module by module, not the domain's index: the returns page's client bundle imports this file.
import { formatPence } from "../domain/money";
import { returnNeed, type NoPaymentsNotice } from "../domain/nil-returns";
import { lateFilingPenaltyPosition, lateFilingPenaltySteps, type PenaltyStepKind } from "../domain/penalties";
import type { DueReturn } from "../domain/returns-due";
import type { ReturnRow } from "./returns.server";

export type PenaltyStepView = {
  kind: PenaltyStepKind;
  /** '£100', 'a further £200', … */
  text: string;
  /** The London date the step starts, long en-GB. */
  startsOn: string;
  /** 'charged': it started before the return was filed (or now, while it is missing); 'coming': it will start unless the return is filed first. */
  state: "charged" | "coming";
};

export type PenaltiesView = {
  /** The sum of the charged steps, formatted. */
  charged: string;
  /** Whether the return was filed (late) or is still missing. */
  filed: boolean;
  steps: PenaltyStepView[];
};

/** How a penalty step reads: "£100", "a further £200", … */
export function penaltyStepText(kind: PenaltyStepKind, amountPence: number): string {
  const amount = formatPence(amountPence);
  switch (kind) {
    case "initial":
      return amount;
    case "two_months":
      return `a further ${amount}`;
    case "six_months":
      return `a further ${amount} (£300 or 5% of the CIS deducted, whichever is higher)`;
    case "twelve_months":
      return `a further ${amount} (the same again)`;
  }
}

/**
 * The late-filing penalties of a month's return: the steps it was charged (filed late) or is charged
 * and will be (still missing), each with the London date it starts. Null while the deadline has not
 * passed, or when the return was filed in time.
 */
export function penaltiesView(taxMonth: string, deductionsP: number, at: { now: Date; filedAt: Date | null }): PenaltiesView | null {
  const position = lateFilingPenaltyPosition(taxMonth, deductionsP, at);
  if (position.incurred.length === 0) return null;
  const filed = at.filedAt !== null && at.filedAt.getTime() <= at.now.getTime();
  const charged = new Set(position.incurred.map((s) => s.kind));
  const steps = lateFilingPenaltySteps(taxMonth, deductionsP)
    .filter((s) => !filed || charged.has(s.kind))
    .map((s) => ({
      kind: s.kind,
      text: penaltyStepText(s.kind, s.amountPence),
      startsOn: formatLongDate(s.startsAt),
      state: charged.has(s.kind) ? ("charged" as const) : ("coming" as const),
    }));
  return { charged: formatPence(position.incurredPence), filed, steps };
}

/**
 * The penalties the returns page shows for its month: while the month is overdue, those of the
 * missing return; once filed, those its first filing was late for (the earliest return HMRC
 * accepted for the month, with its deductions). A nil return nobody owed (the month is before nil
 * returns were required, or a notice of no payments covered it) was late for nothing.
 */
export function monthPenalties(
  taxMonth: string,
  monthReturns: readonly ReturnRow[],
  overdue: readonly DueReturn[],
  now: Date,
  notices: readonly NoPaymentsNotice[] = [],
): PenaltiesView | null {
  const missing = overdue.find((d) => d.taxMonth === taxMonth);
  if (missing) return penaltiesView(taxMonth, missing.deductionsP, { now, filedAt: null });
  const first = monthReturns
    .filter((r) => r.locked || r.status === "submitted")
    .map((r) => ({ r, at: r.submittedAt ?? r.lockedAt }))
    .filter((x): x is { r: ReturnRow; at: number } => x.at !== null)
    .sort((a, b) => a.at - b.at)[0];
  if (!first) return null;
  if (first.r.status === "nil" && returnNeed(taxMonth, 0, notices) !== "nil_return") return null;
  return penaltiesView(taxMonth, first.r.cisDeductedP, { now, filedAt: new Date(first.at) });
}
