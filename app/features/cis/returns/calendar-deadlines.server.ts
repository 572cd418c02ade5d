import type { ReadOnlySource } from "~/features/schedule/index.server";
import { DEADLINE_ACTOR_SCOPE, deadlineLink } from "../dashboard/deadline-alerts.server";
import { DEADLINE_KINDS, nextTaxMonth, taxMonthOf, type DeadlineKind } from "../domain/tax-month";

const DAY_MS = 86_400_000;

const TITLES: Readonly<Record<DeadlineKind, string>> = {
  statements: "Payment and deduction statements due",
  filing: "CIS300 return due",
  payment: "CIS payment to HMRC due",
};

/**
 * The CIS deadlines as read-only calendar events, for tenants with CIS on, each to the people who
 * act on it: payment and deduction statements are to reach subcontractors within 14 days after the
 * tax month ends (the 19th; issuers of statements), the month's return is due on the 19th and the
 * deductions are to be paid by the 22nd (those who compile or submit returns). Each shows on its
 * London day.
 */
export const cisCalendarDeadlines: ReadOnlySource = ({ modules, can, rangeStart, rangeEnd }) => {
  if (!modules.includes("cis")) return [];
  const returns = can("cis.ret.compile") || can(DEADLINE_ACTOR_SCOPE.filing);
  const kinds = DEADLINE_KINDS.filter((kind) => (kind === "statements" ? can(DEADLINE_ACTOR_SCOPE.statements) : returns));
  const out = [];
  // The months whose deadlines (about six weeks after they start) can fall in the range.
  for (let tm = taxMonthOf(new Date(rangeStart - 50 * DAY_MS)); tm.start.getTime() < rangeEnd; tm = nextTaxMonth(tm.label)) {
    for (const kind of kinds) {
      const due = tm.deadlines[kind].getTime();
      // Due at 23:59:59 London: the event covers that London day (the 19th and 22nd never fall on
      // a clock change, which is always on a month's last Sunday).
      out.push({
        key: `cis-${kind}-${tm.label}`,
        title: `${TITLES[kind]} (${tm.displayLabel})`,
        start: due - (DAY_MS - 1000),
        end: due + 1000,
        type: "task" as const,
        href: deadlineLink({ kind, taxMonth: tm.label }),
      });
    }
  }
  return out;
};
