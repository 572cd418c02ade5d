import { formatPence } from "../../domain";
import type { InvoiceStats } from "../invoices.server";

/** The five cards above the list; they describe the whole tenant, not the filtered view. */
export function InvoiceStatCards({ stats }: { stats: InvoiceStats }) {
  const cards = [
    { label: "Total", value: String(stats.total) },
    { label: "Draft", value: String(stats.draft) },
    { label: "Approved", value: String(stats.approved) },
    { label: "This Month CIS", value: formatPence(stats.thisMonthCisP) },
    { label: "Pending Statements", value: String(stats.pendingStatements) },
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 md:grid-cols-5">
      {cards.map((c) => (
        <div key={c.label} className="rounded-brand border border-line bg-elevated p-4">
          <dt className="text-sm opacity-70">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold" data-card={c.label}>
            {c.value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
