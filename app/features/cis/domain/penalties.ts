/**
 * Late-filing penalties for a monthly CIS return (nil returns included once they are due).
 *
 * The filing date is the 19th after the tax month ends; the penalty date is the day after it (the
 * 20th). A return still not filed on
 * - the penalty date costs £100;
 * - two months after the penalty date, a further £200;
 * - six months after the penalty date, a further £300 or 5% of the CIS deductions on the return,
 *   whichever is higher;
 * - twelve months after the penalty date, the same again.
 * Each step starts at midnight London time on its day, and applies when the return was not filed
 * before that moment. (After twelve months HMRC may charge more where information was withheld
 * deliberately; that depends on behaviour and is not shown.)
 */
import { fromZonedTime } from "date-fns-tz";
import { keptPerIsolate } from "~/utils/kept";
import { LONDON_TZ, taxMonthFromLabel } from "./tax-month";

export const PENALTY_STEP_KINDS = ["initial", "two_months", "six_months", "twelve_months"] as const;
export type PenaltyStepKind = (typeof PENALTY_STEP_KINDS)[number];

/** Months after the penalty date each step starts, and its fixed amount or the tax-geared rule. */
const STEPS: readonly { kind: PenaltyStepKind; monthsAfter: number; fixedPence?: number }[] = [
  { kind: "initial", monthsAfter: 0, fixedPence: 10_000 },
  { kind: "two_months", monthsAfter: 2, fixedPence: 20_000 },
  { kind: "six_months", monthsAfter: 6 },
  { kind: "twelve_months", monthsAfter: 12 },
];

/** The floor of a tax-geared step, and its share of the return's deductions (5%). */
export const TAX_GEARED_MINIMUM_PENCE = 30_000;
const TAX_GEARED_PERCENT = 5;

export interface PenaltyStep {
  kind: PenaltyStepKind;
  /** Midnight London time on the day the step starts. */
  startsAt: Date;
  amountPence: number;
}

export interface PenaltyPosition {
  /** The steps that apply (the return was not filed before they started), oldest first. */
  incurred: PenaltyStep[];
  incurredPence: number;
  /** The next step, when the return is still not filed; null once filed or after the last step. */
  next: PenaltyStep | null;
}

/** £300 or 5% of the deductions (in pence, rounded down), whichever is higher. */
export function taxGearedPenaltyPence(deductionsPence: number): number {
  const share = Math.floor((Math.max(0, deductionsPence) * TAX_GEARED_PERCENT) / 100);
  return Math.max(TAX_GEARED_MINIMUM_PENCE, share);
}

/** Every step for the return of a tax month ('YYYY-MM'), whose deductions total `deductionsPence`. */
export function lateFilingPenaltySteps(taxMonthLabel: string, deductionsPence: number): PenaltyStep[] {
  const starts = stepStarts(taxMonthLabel);
  return STEPS.map((s, i) => ({
    kind: s.kind,
    startsAt: new Date(starts[i]!),
    amountPence: s.fixedPence ?? taxGearedPenaltyPence(deductionsPence),
  }));
}

// When each step of a month's return starts (epoch ms), per isolate: working out London midnight is
// the costly part, and the returns page asks for every overdue month's steps on each request.
// At most 240 kept.
const stepStarts = keptPerIsolate(240, (taxMonthLabel: string): readonly number[] => {
  // Validates the label; the filing date is the 19th of the month after the tax month starts.
  taxMonthFromLabel(taxMonthLabel);
  const year = Number(taxMonthLabel.slice(0, 4));
  const month = Number(taxMonthLabel.slice(5, 7));
  return STEPS.map((s) => {
    const index = year * 12 + (month - 1) + 1 + s.monthsAfter;
    const y = Math.floor(index / 12);
    const m = (index % 12) + 1;
    return fromZonedTime(`${y}-${String(m).padStart(2, "0")}-20T00:00:00`, LONDON_TZ).getTime();
  });
});

/** Which steps apply at `now`, given when (if at all) the return was filed. */
export function lateFilingPenaltyPosition(taxMonthLabel: string, deductionsPence: number, at: { now: Date; filedAt: Date | null }): PenaltyPosition {
  const steps = lateFilingPenaltySteps(taxMonthLabel, deductionsPence);
  const cutOff = at.filedAt && at.filedAt.getTime() <= at.now.getTime() ? at.filedAt : at.now;
  const incurred = steps.filter((s) => s.startsAt.getTime() <= cutOff.getTime());
  const stillOpen = !at.filedAt || at.filedAt.getTime() > at.now.getTime();
  return {
    incurred,
    incurredPence: incurred.reduce((sum, s) => sum + s.amountPence, 0),
    next: stillOpen ? (steps.find((s) => s.startsAt.getTime() > at.now.getTime()) ?? null) : null,
  };
}
