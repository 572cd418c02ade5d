import { Link } from "react-router";
import type { OverdueReturnView } from "../view.server";
import type { PenaltiesView } from "../penalties-view";

/** The late-filing penalty steps: charged ones with the date each started, the coming ones with the date each will start. */
export function PenaltySteps({ penalties }: { penalties: PenaltiesView }) {
  return (
    <ul className="mt-1 list-disc space-y-0.5 pl-5" data-penalties>
      {penalties.steps.map((s) => (
        <li key={s.kind} data-penalty={s.kind} data-state={s.state}>
          {s.state === "charged" ? `${s.text} from ${s.startsOn}` : `${s.text} from ${s.startsOn} if still not filed`}
        </li>
      ))}
    </ul>
  );
}

/** The month's late-filing penalties on the returns page: what is charged so far and what comes next. */
export function PenaltiesPanel({ penalties }: { penalties: PenaltiesView }) {
  return (
    <section aria-labelledby="penalties-heading" className="rounded-brand border border-danger bg-danger/5 p-4 text-sm" data-testid="penalties">
      <h3 id="penalties-heading" className="font-semibold">
        Late-filing penalties
      </h3>
      <p className="mt-1" data-field="penalties-charged">
        {penalties.filed ? `Filed late: penalties of ${penalties.charged} apply.` : `Not filed: penalties of ${penalties.charged} so far.`}
      </p>
      <PenaltySteps penalties={penalties} />
    </section>
  );
}

/** Returns whose filing deadline has passed with nothing filed: each month, its due date, how late, its penalties, and a link to it. */
export function OverdueReturns({ items }: { items: OverdueReturnView[] }) {
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="overdue-returns-heading" className="rounded-brand border border-danger bg-danger/5 p-4" data-testid="overdue-returns">
      <h3 id="overdue-returns-heading" className="font-semibold text-danger">
        Overdue returns
      </h3>
      <ul className="mt-2 space-y-2 text-sm">
        {items.map((o) => (
          <li key={o.taxMonth} data-overdue={o.taxMonth} data-nil={String(o.nil)}>
            <Link to={o.href} className="font-medium underline">
              {o.period}
            </Link>{" "}
            {o.nil ? "· Nil return " : ""}· due {o.dueDate} · <span className="text-danger">{o.overdueText}</span>
            {o.penalties ? (
              // Folded: several overdue months, each with four steps, would fill a phone's first screen.
              <details>
                <summary className="cursor-pointer">Penalties so far: {o.penalties.charged}</summary>
                <PenaltySteps penalties={o.penalties} />
              </details>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}
