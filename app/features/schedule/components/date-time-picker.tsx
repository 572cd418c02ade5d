import { useRef, useState } from "react";
import { inputClass } from "~/components/ui/field";
import { fieldText, followStart, initialPick, londonWallClock, type WallClock } from "../domain/date-time-picker";
import { isHm, isYmd } from "../domain/time";
import { PickerDialog } from "./date-time-picker-dialog";

/**
 * The event form's start and end with JavaScript: the spec's date-time picker. Loaded by
 * `event-times.tsx` with a dynamic import() after hydration, so the event page's first load does
 * not carry it. Each field is read-only and shows year-month-day hours:minutes; it opens the picker,
 * and hidden inputs send the same startDate / startTime / endDate / endTime (London wall-clock
 * times) the native inputs send without JavaScript, so the server is unchanged.
 */

/** The four fields as the form sends them. */
export type EventTimesValues = { startDate: string; startTime: string; endDate: string; endTime: string };

const complete = (v: WallClock) => isYmd(v.date) && isHm(v.time);

function CalendarIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.5">
      <rect x="3" y="4.5" width="14" height="12.5" rx="1.5" />
      <path d="M3 8.5h14M7 3v3M13 3v3" />
    </svg>
  );
}

function DateTimeField({
  id,
  label,
  names,
  value,
  error,
  onChange,
}: {
  id: string;
  label: string;
  names: [date: string, time: string];
  value: WallClock;
  error?: string;
  onChange: (v: WallClock) => void;
}) {
  const field = useRef<HTMLButtonElement>(null);
  // Open: today's London date (the picker marks it); closed: null.
  const [today, setToday] = useState<string | null>(null);
  return (
    <div className="space-y-1">
      <label id={`${id}-label`} htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      <button
        ref={field}
        type="button"
        id={id}
        aria-haspopup="dialog"
        aria-labelledby={`${id}-label ${id}`}
        aria-describedby={error ? `${id}-error` : undefined}
        onClick={() => setToday(londonWallClock(Date.now()).date)}
        className={`${inputClass} flex items-center justify-between gap-2 text-left tabular-nums ${error ? "border-danger" : ""}`}
      >
        <span>{complete(value) ? fieldText(value) : "Choose a date and time"}</span>
        <CalendarIcon />
      </button>
      <input type="hidden" name={names[0]} value={value.date} />
      <input type="hidden" name={names[1]} value={value.time} />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      {today ? (
        <PickerDialog
          id={`${id}-picker`}
          title={`${label} date and time`}
          initial={initialPick(value.date, value.time, today)}
          today={today}
          onConfirm={onChange}
          onClose={() => {
            setToday(null);
            field.current?.focus();
          }}
        />
      ) : null}
    </div>
  );
}

/** Start and end; when the start moves, the end moves with it so the event keeps its length. */
export function DateTimeFields({ initial, errors }: { initial: EventTimesValues; errors: { start?: string; end?: string } }) {
  const [start, setStart] = useState<WallClock>({ date: initial.startDate, time: initial.startTime });
  const [end, setEnd] = useState<WallClock>({ date: initial.endDate, time: initial.endTime });
  const moveStart = (to: WallClock) => {
    if (complete(start) && complete(end)) setEnd(followStart(end, start, to));
    setStart(to);
  };
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <DateTimeField id="eventStart" label="Start" names={["startDate", "startTime"]} value={start} error={errors.start} onChange={moveStart} />
      <DateTimeField id="eventEnd" label="End" names={["endDate", "endTime"]} value={end} error={errors.end} onChange={setEnd} />
    </div>
  );
}
