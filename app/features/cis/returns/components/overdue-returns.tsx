import { Link } from "react-router";
import type { OverdueReturnView } from "../view.server";

/** Returns whose filing deadline has passed with nothing filed: each month, its due date, how late, and a link to it. */
export function OverdueReturns({ items }: { items: OverdueReturnView[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="overdue-returns-heading" className="rounded-brand border border-danger bg-danger/5 p-4" data-testid="overdue-returns">
      <h3 id="overdue-returns-heading" className="font-semibold text-danger">
        Overdue returns
      </h3>
      <ul className="mt-2 space-y-1 text-sm">
        {items.map((o) => (
          <li key={o.taxMonth} data-overdue={o.taxMonth}>
            <Link to={o.href} className="font-medium underline">
              {o.period}
            </Link>{" "}
            · due {o.dueDate} · <span className="text-danger">{o.overdueText}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
