/**
 * Overdue returns for the daily alerts: every month whose return (a nil return included, once
 * due) is past its filing date and still not filed. Each becomes one notification per person and
 * penalty step (the £100 on the day after the deadline, then each further step as it starts), so
 * a month is announced again only when what it costs goes up, and a rerun adds nothing.
 */
import { dbFor } from "~/db/client.server";
import { formatLongDate } from "~/utils/dates";
import { formatPence, lateFilingPenaltyPosition, type DueReturn, type PenaltyStepKind } from "../domain";
import { penaltyStepText } from "../returns/penalties-view";
import { overdueReturnsQueries, toOverdueReturns } from "../returns/returns.server";

export type OverdueAlert = {
  taxMonth: string;
  /** The latest penalty step the month has reached: one notification per step. */
  step: PenaltyStepKind;
  /** The notification's kind in its id: `overdue-{step}`. */
  kind: `overdue-${PenaltyStepKind}`;
  title: string;
  message: string;
  link: string;
};

/** What one overdue month says: what is missing, since when, what it costs so far and what comes next. */
export function overdueAlert(due: DueReturn, now: Date): OverdueAlert | null {
  const position = lateFilingPenaltyPosition(due.taxMonth, due.deductionsP, { now, filedAt: null });
  const latest = position.incurred.at(-1);
  if (!latest) return null;
  const what = due.nil ? "nil return" : "CIS300 return";
  const next = position.next
    ? `; ${penaltyStepText(position.next.kind, position.next.amountPence)} from ${formatLongDate(position.next.startsAt)} unless it is filed first`
    : "";
  return {
    taxMonth: due.taxMonth,
    step: latest.kind,
    kind: `overdue-${latest.kind}`,
    title: `${due.nil ? "CIS nil return" : "CIS300 return"} overdue: ${due.displayLabel}`,
    message: `The ${what} for ${due.displayLabel} was due by ${formatLongDate(due.deadline)} and is not filed. Late-filing penalties so far: ${formatPence(position.incurredPence)}${next}.`,
    link: `/cis/returns?month=${due.taxMonth}`,
  };
}

/** The tenant's overdue returns as alerts, newest month first, in one D1 round trip (the overdue list's own reads). */
export async function overdueAlerts(env: Env, tenantId: string, now: Date): Promise<OverdueAlert[]> {
  const db = dbFor(env, tenantId);
  const [first, paid, filed, notices] = overdueReturnsQueries(db, tenantId, now);
  const results = await db.batch([first, paid, filed, notices]);
  return toOverdueReturns(now, results).flatMap((due) => overdueAlert(due, now) ?? []);
}
