import type { ReactNode } from "react";

const COLUMNS: Readonly<Record<number, string>> = { 4: "md:grid-cols-4", 5: "md:grid-cols-5" };

/** A row of figure cards above a list; each figure carries data-card={label} for tests and tools; a note (what it counts) goes under it. */
export function StatCards({ cards }: { cards: readonly { label: string; value: ReactNode; note?: ReactNode }[] }) {
  return (
    <dl className={`grid grid-cols-2 gap-4 ${COLUMNS[cards.length] ?? "md:grid-cols-4"}`}>
      {cards.map((c) => (
        <div key={c.label} className="rounded-brand border border-line bg-elevated p-4">
          <dt className="text-sm opacity-70">{c.label}</dt>
          <dd className="mt-1 text-2xl font-semibold" data-card={c.label}>
            {c.value}
          </dd>
          {c.note ? <dd className="mt-1 text-xs opacity-70">{c.note}</dd> : null}
        </div>
      ))}
    </dl>
  );
}
