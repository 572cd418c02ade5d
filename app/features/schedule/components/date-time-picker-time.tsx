import type { KeyboardEvent } from "react";
import { HOURS, hm, hourOf, MINUTES, minuteOf, repeatedHours, skippedHours, type WallClock } from "../domain/date-time-picker";

const pad = (n: number) => String(n).padStart(2, "0");

const optionClass = (checked: boolean, disabled: boolean) =>
  [
    "h-10 rounded-brand border text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-accent-ink",
    checked ? "border-accent bg-accent font-semibold text-accent-foreground" : "border-line hover:bg-surface",
    disabled ? "cursor-not-allowed line-through" : "",
  ].join(" ");

/** What the person should know about the day's clock change, if it has one. */
function clockNote(date: string): string | null {
  if (skippedHours(date).length) return "The clocks go forward at 01:00 on this day: 01:00 to 01:59 does not exist.";
  if (repeatedHours(date).length) return "The clocks go back at 02:00 on this day: 01:00 to 01:59 happens twice; the second (GMT) is used.";
  return null;
}

/**
 * A group of radio buttons laid out in rows of `columns` with one Tab stop (the chosen one): the
 * arrow keys choose the option beside, above or below (skipping those that cannot be chosen),
 * Home and End the first and last, as radio groups do.
 */
function RadioGrid({
  id,
  label,
  options,
  value,
  columns,
  disabled = [],
  describedBy,
  onChoose,
}: {
  id: string;
  label: string;
  options: readonly number[];
  value: number;
  /** Tailwind's grid columns class. */
  columns: "grid-cols-6" | "grid-cols-4";
  disabled?: number[];
  describedBy?: string;
  onChoose: (n: number) => void;
}) {
  const open = options.filter((o) => !disabled.includes(o));
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const across = columns === "grid-cols-6" ? 6 : 4;
    const steps: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -across, ArrowDown: across };
    const at = open.indexOf(value);
    let next: number | undefined;
    if (e.key === "Home") next = open[0];
    else if (e.key === "End") next = open.at(-1);
    else if (e.key in steps) next = open[Math.min(open.length - 1, Math.max(0, at + steps[e.key]!))];
    if (next === undefined) return;
    e.preventDefault();
    onChoose(next);
    e.currentTarget.querySelector<HTMLElement>(`[data-value="${next}"]`)?.focus();
  };
  return (
    <div>
      <div id={`${id}-label`} className="text-sm font-medium">
        {label}
      </div>
      <div role="radiogroup" aria-labelledby={`${id}-label`} aria-describedby={describedBy} className={`mt-1 grid gap-1 ${columns}`} onKeyDown={onKeyDown}>
        {options.map((o) => (
          <button
            key={o}
            type="button"
            role="radio"
            data-value={o}
            aria-checked={o === value}
            aria-disabled={disabled.includes(o) || undefined}
            tabIndex={o === value ? 0 : -1}
            onClick={() => (disabled.includes(o) ? undefined : onChoose(o))}
            className={optionClass(o === value, disabled.includes(o))}
          >
            {pad(o)}
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * The Time tab: the chosen time in large figures, hours 00-23 and minutes 00, 15, 30, 45. An hour
 * the clocks skip on the chosen day cannot be chosen.
 */
export function TimeChoice({ id, pick, onTime }: { id: string; pick: WallClock; onTime: (time: string) => void }) {
  const hour = hourOf(pick.time);
  const minute = minuteOf(pick.time);
  const note = clockNote(pick.date);
  return (
    <div className="space-y-3">
      <p className="text-center text-5xl font-semibold tabular-nums" aria-live="polite" aria-atomic="true">
        <span className="sr-only">Time chosen: </span>
        {pick.time}
      </p>
      {note ? (
        <p id={`${id}-clock-note`} className="text-sm">
          {note}
        </p>
      ) : null}
      <RadioGrid
        id={`${id}-hour`}
        label="Hour"
        options={HOURS}
        value={hour}
        columns="grid-cols-6"
        disabled={skippedHours(pick.date)}
        describedBy={note ? `${id}-clock-note` : undefined}
        onChoose={(h) => onTime(hm(h, minute))}
      />
      <RadioGrid id={`${id}-minute`} label="Minutes" options={MINUTES} value={minute} columns="grid-cols-4" onChoose={(m) => onTime(hm(hour, m))} />
    </div>
  );
}
