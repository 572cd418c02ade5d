import { Form, Link } from "react-router";
import { addDays, daysBetween, longDay, monthName, startOfWeek, viewDays, WEEKDAY_SHORT, weekday, type Ymd } from "../domain/time";
import type { DayItem, MonthCell } from "../view.server";
import { EventChip } from "./event-chip";

type DayLinks = {
  /** The day view of a date. */
  dayHref: (d: Ymd) => string;
  /** The new-event page for a date, when the person may create events. */
  newHref: ((d: Ymd) => string) | null;
  /** An event is held for pasting: each day offers 'Paste here'. */
  pasteId: string | null;
  today: Ymd;
};

function PasteHere({ id, date }: { id: string; date: Ymd }) {
  return (
    <Form method="post" action="/schedule" className="mt-1">
      <input type="hidden" name="intent" value="paste" />
      <input type="hidden" name="eventId" value={id} />
      <input type="hidden" name="date" value={date} />
      <button type="submit" className="text-xs text-accent-ink underline">
        Paste here<span className="sr-only"> ({longDay(date)})</span>
      </button>
    </Form>
  );
}

/** A day cell's double-click target (with JavaScript): paste the held event, or open a new one. */
function dayData(d: Ymd) {
  return { "data-day": d };
}

/** The month: each day's first few events (the loader sends no more) and a link to the rest. */
export function MonthView({ date, cells, links }: { date: Ymd; cells: Record<Ymd, MonthCell>; links: DayLinks }) {
  const { first, end } = viewDays("month", date);
  const weeks: Ymd[][] = [];
  for (let d = first; d < end; d = addDays(d, 7)) weeks.push([0, 1, 2, 3, 4, 5, 6].map((i) => addDays(d, i)));
  const month = date.slice(0, 7);
  return (
    <table className="w-full table-fixed border-collapse text-sm" aria-label={`${monthName(Number(date.slice(5, 7)))} ${date.slice(0, 4)}`}>
      <thead>
        <tr>
          {WEEKDAY_SHORT.map((w) => (
            <th key={w} scope="col" className="border-b border-line py-1 text-xs font-medium">
              {w}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week[0]}>
            {week.map((d) => {
              const { items, total } = cells[d] ?? { items: [], total: 0 };
              return (
                <td
                  key={d}
                  {...dayData(d)}
                  className={`relative h-24 overflow-hidden border border-line p-0.5 align-top sm:p-1 ${d.slice(0, 7) === month ? "" : "bg-surface"}`}
                >
                  <Link
                    to={links.dayHref(d)}
                    className={`inline-block rounded px-1 text-xs ${d === links.today ? "bg-accent font-semibold text-accent-foreground" : ""}`}
                    aria-label={`${longDay(d)}${total ? `, ${total} event${total === 1 ? "" : "s"}` : ""}`}
                  >
                    {Number(d.slice(8, 10))}
                  </Link>
                  <ul className="mt-0.5 space-y-0.5">
                    {items.map((item) => (
                      <li key={`${item.id}-${item.at}`}>
                        <EventChip item={item} compact />
                      </li>
                    ))}
                  </ul>
                  {total > items.length ? (
                    <Link to={links.dayHref(d)} className="text-xs underline">
                      +{total - items.length} more<span className="sr-only"> on {longDay(d)}</span>
                    </Link>
                  ) : null}
                  {links.pasteId ? <PasteHere id={links.pasteId} date={d} /> : null}
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The hours a week's time grid shows: the working day widened to the earliest and latest timed event. */
function weekHours(days: Record<Ymd, DayItem[]>, first: Ymd): number[] {
  let from = 7;
  let to = 18;
  for (let i = 0; i < 7; i++) {
    for (const item of days[addDays(first, i)] ?? []) {
      if (item.from === null) continue;
      from = Math.min(from, item.hour);
      to = Math.max(to, item.hour + 1);
    }
  }
  return Array.from({ length: to - from }, (_, k) => from + k);
}

const hourLabel = (h: number) => `${String(h).padStart(2, "0")}:00`;

/**
 * The week: a time grid on wider screens (hours down, days across, each event in its starting
 * hour's cell), stacked by day on a phone. One grid: each cell names its place in it, so the
 * stacked order (day by day) is the document's order.
 */
export function WeekView({ date, days, links }: { date: Ymd; days: Record<Ymd, DayItem[]>; links: DayLinks }) {
  const first = startOfWeek(date);
  const hours = weekHours(days, first);
  return (
    <div className="flex flex-col gap-1 md:grid md:grid-cols-[3.5rem_repeat(7,minmax(0,1fr))] md:gap-0" data-week-grid>
      {hours.map((h, r) => (
        <div
          key={h}
          aria-hidden="true"
          className="hidden border-t border-line pr-1 text-right text-xs tabular-nums opacity-80 md:block"
          style={{ gridColumn: 1, gridRow: r + 3 }}
        >
          {hourLabel(h)}
        </div>
      ))}
      {[0, 1, 2, 3, 4, 5, 6].map((i) => (
        <WeekDay key={i} d={addDays(first, i)} column={i + 2} items={days[addDays(first, i)] ?? []} hours={hours} links={links} />
      ))}
    </div>
  );
}

function WeekDay({ d, column, items, hours, links }: { d: Ymd; column: number; items: DayItem[]; hours: number[]; links: DayLinks }) {
  const continuing = items.filter((i) => i.from === null);
  return (
    <section {...dayData(d)} aria-labelledby={`wk-${d}`} className="contents">
      <h2 id={`wk-${d}`} className="mt-2 border-line text-sm font-semibold md:mt-0 md:border-l md:px-1" style={{ gridColumn: column, gridRow: 1 }}>
        <Link to={links.dayHref(d)} className={d === links.today ? "text-accent-ink underline" : "hover:underline"}>
          {WEEKDAY_SHORT[weekday(d)]} {Number(d.slice(8, 10))} {monthName(Number(d.slice(5, 7))).slice(0, 3)}
        </Link>
      </h2>
      <div className="space-y-1 border-line md:border-l md:p-0.5" style={{ gridColumn: column, gridRow: 2 }}>
        {continuing.map((item) => (
          <EventChip key={`${item.id}-${item.at}`} item={item} wrap />
        ))}
        {items.length === 0 ? <p className="text-xs opacity-70 md:sr-only">No events</p> : null}
        {links.pasteId ? <PasteHere id={links.pasteId} date={d} /> : null}
      </div>
      {hours.map((h, r) => {
        const inHour = items.filter((i) => i.from !== null && i.hour === h);
        return (
          <ul
            key={h}
            className={`space-y-1 border-line md:min-h-10 md:border-l md:border-t md:p-0.5 ${inHour.length ? "" : "hidden md:block"}`}
            style={{ gridColumn: column, gridRow: r + 3 }}
          >
            {inHour.map((item) => (
              <li key={`${item.id}-${item.at}`}>
                <EventChip item={item} wrap />
              </li>
            ))}
          </ul>
        );
      })}
    </section>
  );
}

export function DayView({ date, days, links, hours }: { date: Ymd; days: Record<Ymd, DayItem[]>; links: DayLinks; hours: "9-5" | "24h" }) {
  const items = days[date] ?? [];
  const [from, to] = hours === "9-5" ? [9, 17] : [0, 24];
  const allDay = items.filter((i) => i.from === null);
  const timed = items.filter((i) => i.from !== null);
  const outside = timed.filter((i) => i.hour < from || i.hour >= to);
  const slots = Array.from({ length: to - from }, (_, k) => from + k);
  return (
    <div {...dayData(date)}>
      {allDay.length ? (
        <section aria-label="Continuing from an earlier day" className="mb-2">
          <ul className="space-y-1">
            {allDay.map((item) => (
              <li key={`${item.id}-${item.at}`}>
                <EventChip item={item} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <ol className="divide-y divide-line rounded-brand border border-line">
        {slots.map((h) => {
          const inHour = timed.filter((i) => i.hour === h);
          return (
            <li key={h} className="flex min-h-10 gap-2 px-2 py-1">
              <span className="w-12 shrink-0 text-xs tabular-nums opacity-80">{`${String(h).padStart(2, "0")}:00`}</span>
              <ul className="min-w-0 flex-1 space-y-1">
                {inHour.map((item) => (
                  <li key={`${item.id}-${item.at}`}>
                    <EventChip item={item} />
                  </li>
                ))}
              </ul>
              {links.newHref ? (
                <Link to={`${links.newHref(date)}&time=${String(h).padStart(2, "0")}:00`} className="self-start text-xs underline">
                  Add<span className="sr-only"> at {`${String(h).padStart(2, "0")}:00`}</span>
                </Link>
              ) : null}
            </li>
          );
        })}
      </ol>
      {outside.length ? (
        <section aria-label="Outside working hours" className="mt-2">
          <h2 className="text-sm font-semibold">Outside working hours</h2>
          <ul className="mt-1 space-y-1">
            {outside.map((item) => (
              <li key={`${item.id}-${item.at}`}>
                <EventChip item={item} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {!items.length ? <p className="mt-2 text-sm opacity-80">No events on this day</p> : null}
      {links.pasteId ? <PasteHere id={links.pasteId} date={date} /> : null}
    </div>
  );
}

export function YearView({ date, counts, links }: { date: Ymd; counts: Record<Ymd, number>; links: DayLinks }) {
  const year = date.slice(0, 4);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {Array.from({ length: 12 }, (_, m) => {
        const first = `${year}-${String(m + 1).padStart(2, "0")}-01`;
        const lead = weekday(first);
        const length = daysBetween(first, m === 11 ? `${Number(year) + 1}-01-01` : `${year}-${String(m + 2).padStart(2, "0")}-01`);
        const cells: (Ymd | null)[] = [...Array.from({ length: lead }, () => null), ...Array.from({ length }, (_, i) => addDays(first, i))];
        return (
          <section key={m} aria-label={`${monthName(m + 1)} ${year}`}>
            <h2 className="text-sm font-semibold">{monthName(m + 1)}</h2>
            <div className="mt-1 grid grid-cols-7 gap-0.5 text-center text-xs">
              {WEEKDAY_SHORT.map((w) => (
                <span key={w} aria-hidden="true" className="opacity-70">
                  {w}
                </span>
              ))}
              {cells.map((d, i) =>
                d ? (
                  <Link
                    key={d}
                    to={links.dayHref(d)}
                    aria-label={`${longDay(d)}${counts[d] ? `, ${counts[d]} event${counts[d] === 1 ? "" : "s"}` : ""}`}
                    className={`rounded py-0.5 tabular-nums ${counts[d] ? "bg-accent/20 font-semibold" : ""} ${d === links.today ? "outline outline-2 outline-accent-ink" : ""}`}
                  >
                    {Number(d.slice(8, 10))}
                  </Link>
                ) : (
                  <span key={`x${i}`} />
                ),
              )}
            </div>
          </section>
        );
      })}
    </div>
  );
}
