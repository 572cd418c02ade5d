import { Link } from "react-router";
import { STATUS_LABELS, TYPE_LABELS } from "../domain/labels";
import type { DayItem } from "../view.server";

const STATUS_DOT: Record<DayItem["status"], string> = { green: "bg-green-600", amber: "bg-amber-500", red: "bg-red-600" };

/** One event in a view: a link to its page, with its status as a dot and in words for screen readers. */
export function EventChip({ item, compact = false, wrap = false }: { item: DayItem; compact?: boolean; wrap?: boolean }) {
  const time = item.from ?? "…";
  return (
    <Link
      to={item.href ?? (item.repeats ? `/schedule/${item.id}?at=${item.at}` : `/schedule/${item.id}`)}
      data-event={item.href ? undefined : item.id}
      data-read-only={item.href ? item.id : undefined}
      className={`relative flex min-w-0 ${wrap ? "items-start" : "items-center"} gap-1 overflow-hidden rounded border border-line bg-elevated px-1 py-0.5 text-xs hover:bg-surface`}
    >
      <span aria-hidden="true" className={`inline-block h-2 w-2 shrink-0 rounded-full ${STATUS_DOT[item.status]}`} />
      <span className={wrap ? "min-w-0 break-words" : "truncate"}>
        {compact ? null : <span className="tabular-nums">{time} </span>}
        {item.title}
        <span className="sr-only">
          {item.href ? ", deadline" : `, ${TYPE_LABELS[item.type]}, ${STATUS_LABELS[item.status]}`}
          {compact && item.from ? `, ${item.from}` : ""}
          {item.repeats ? ", repeats" : ""}
        </span>
      </span>
    </Link>
  );
}
