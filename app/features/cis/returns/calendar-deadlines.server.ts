import type { ReadOnlySource } from "~/features/schedule/index.server";
import { deadlineLink } from "../dashboard/deadline-alerts.server";
import { nextTaxMonth, taxMonthOf } from "../domain/tax-month";

const DAY_MS = 86_400_000;

/**
 * The CIS deadlines as read-only calendar events, for tenants with CIS on and people who compile
 * or submit returns: each tax month's return is due on the 19th after it ends and the deductions
 * are to be paid by the 22nd. Each shows on its London day.
 */
export const cisCalendarDeadlines: ReadOnlySource = ({ modules, can, rangeStart, rangeEnd }) => {
  if (!modules.includes("cis") || !(can("cis.ret.compile") || can("cis.ret.submit"))) return [];
  const out = [];
  // The months whose deadlines (about six weeks after they start) can fall in the range.
  for (let tm = taxMonthOf(new Date(rangeStart - 50 * DAY_MS)); tm.start.getTime() < rangeEnd; tm = nextTaxMonth(tm.label)) {
    for (const kind of ["filing", "payment"] as const) {
      const due = tm.deadlines[kind].getTime();
      // Due at 23:59:59 London: the event covers that London day (the 19th and 22nd never fall on
      // a clock change, which is always on a month's last Sunday).
      const start = due - (DAY_MS - 1000);
      const end = due + 1000;
      out.push({
        key: `cis-${kind}-${tm.label}`,
        title: kind === "filing" ? `CIS300 return due (${tm.displayLabel})` : `CIS payment to HMRC due (${tm.displayLabel})`,
        start,
        end,
        type: "task" as const,
        href: deadlineLink({ kind, taxMonth: tm.label }),
      });
    }
  }
  return out;
};
