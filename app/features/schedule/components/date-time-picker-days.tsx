import { useEffect, useRef, type KeyboardEvent } from "react";
import { monthGrid, sameMonth, stepMonth } from "../domain/date-time-picker";
import { addDays, longDay, monthName, startOfWeek, WEEKDAY_SHORT, type Ymd } from "../domain/time";

const WEEKDAY_NAMES = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"];

/** Where a key moves the day that has focus in the grid (null: not a key the grid uses). */
function moveBy(key: string, shift: boolean, day: Ymd): Ymd | null {
  switch (key) {
    case "ArrowLeft":
      return addDays(day, -1);
    case "ArrowRight":
      return addDays(day, 1);
    case "ArrowUp":
      return addDays(day, -7);
    case "ArrowDown":
      return addDays(day, 7);
    case "Home":
      return startOfWeek(day);
    case "End":
      return addDays(startOfWeek(day), 6);
    case "PageUp":
      return stepMonth(day, shift ? -12 : -1);
    case "PageDown":
      return stepMonth(day, shift ? 12 : 1);
    default:
      return null;
  }
}

const dayClass = (picked: boolean, inMonth: boolean, today: boolean) =>
  [
    "h-10 w-10 rounded-full text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-ink",
    picked ? "bg-accent font-semibold text-accent-foreground" : "hover:bg-surface",
    inMonth || picked ? "" : "opacity-70",
    today && !picked ? "border border-accent-ink" : "",
  ].join(" ");

/**
 * The Date tab: a month of days, weeks from Monday, with the previous and next month. One day has
 * the focus stop (`cursor`); the arrow keys move it by a day or a week, Home / End to the week's
 * ends, Page Up / Page Down by a month (with Shift a year), and Enter or Space chooses it.
 */
export function DayGrid({
  id,
  cursor,
  picked,
  today,
  onCursor,
  onPick,
}: {
  id: string;
  cursor: Ymd;
  picked: Ymd;
  today: Ymd;
  onCursor: (day: Ymd) => void;
  onPick: (day: Ymd) => void;
}) {
  const grid = useRef<HTMLTableElement>(null);
  const wantFocus = useRef(false);
  useEffect(() => {
    if (!wantFocus.current) return;
    wantFocus.current = false;
    grid.current?.querySelector<HTMLButtonElement>(`[data-day="${cursor}"]`)?.focus();
  }, [cursor]);
  const onKeyDown = (e: KeyboardEvent) => {
    const to = moveBy(e.key, e.shiftKey, cursor);
    if (!to) return;
    e.preventDefault();
    wantFocus.current = true;
    onCursor(to);
  };
  const monthLabel = `${monthName(Number(cursor.slice(5, 7)))} ${cursor.slice(0, 4)}`;
  return (
    <div>
      <div className="flex items-center justify-between gap-2">
        <MonthButton label="Previous month" onClick={() => onCursor(stepMonth(cursor, -1))} glyph="‹" />
        <h3 id={`${id}-month`} aria-live="polite" className="text-base font-semibold">
          {monthLabel}
        </h3>
        <MonthButton label="Next month" onClick={() => onCursor(stepMonth(cursor, 1))} glyph="›" />
      </div>
      <table ref={grid} aria-labelledby={`${id}-month`} className="mx-auto mt-2 border-collapse" onKeyDown={onKeyDown}>
        <thead>
          <tr>
            {WEEKDAY_SHORT.map((d, i) => (
              <th key={d} scope="col" className="h-8 w-10 text-xs font-medium">
                <abbr title={WEEKDAY_NAMES[i]} className="no-underline">
                  {d}
                </abbr>
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(cursor).map((week) => (
            <tr key={week[0]}>
              {week.map((day) => (
                <td key={day} className="p-0 text-center">
                  <button
                    type="button"
                    data-day={day}
                    tabIndex={day === cursor ? 0 : -1}
                    aria-label={longDay(day)}
                    aria-pressed={day === picked}
                    aria-current={day === today ? "date" : undefined}
                    className={dayClass(day === picked, sameMonth(day, cursor), day === today)}
                    onClick={() => onPick(day)}
                  >
                    {Number(day.slice(8, 10))}
                  </button>
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function MonthButton({ label, glyph, onClick }: { label: string; glyph: string; onClick: () => void }) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      onClick={onClick}
      className="h-10 w-10 rounded-full text-xl hover:bg-surface focus-visible:outline-2 focus-visible:outline-accent-ink"
    >
      <span aria-hidden="true">{glyph}</span>
    </button>
  );
}
