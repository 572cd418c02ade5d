import { Link } from "react-router";
import { StatCards } from "~/components/ui/stat-cards";
import { formatPence } from "../../domain/money";
import type { InvoiceStats } from "../queries.server";

/** The five cards above the list; they describe the whole tenant, not the filtered view. */
export function InvoiceStatCards({ stats }: { stats: InvoiceStats }) {
  const cards = [
    { label: "Total", value: String(stats.total) },
    { label: "Draft", value: String(stats.draft) },
    { label: "Approved", value: String(stats.approved) },
    { label: "This Month CIS", value: formatPence(stats.thisMonthCisP) },
    {
      label: "Pending Statements",
      value: String(stats.pendingStatements),
      note: (
        <Link to={`/cis/statements?month=${stats.pendingStatementsMonth.label}`} className="underline">
          Tax month {stats.pendingStatementsMonth.displayLabel}
        </Link>
      ),
    },
  ];
  return <StatCards cards={cards} />;
}
