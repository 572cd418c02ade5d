import { useEffect, useRef, useState } from "react";
import { Field, inputClass } from "~/components/ui/field";
import type { EventTimesValues } from "./date-time-picker";

type Picker = typeof import("./date-time-picker");
type Errors = Partial<Record<keyof EventTimesValues, string>>;

const NAMES = ["startDate", "startTime", "endDate", "endTime"] as const;
const LABELS = { startDate: "Start date", startTime: "Start time", endDate: "End date", endTime: "End time" };
const keyOf = (v: EventTimesValues) => NAMES.map((n) => v[n]).join("|");

/**
 * The event's start and end. The server renders native date and time inputs, which is all a
 * browser without JavaScript gets; once the page has hydrated, the date-time picker is fetched
 * (a chunk of its own, off the first load) and takes their place, starting from what they hold.
 */
export function EventTimes({ values, errors, enhance }: { values: EventTimesValues; errors: Errors; enhance: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  const [picker, setPicker] = useState<{ kit: Picker; typed: EventTimesValues; over: string } | null>(null);
  useEffect(() => {
    if (!enhance) return;
    let live = true;
    void import("./date-time-picker").then((kit) => {
      if (!live) return;
      // What the inputs hold by now: the person may have typed before the picker arrived.
      const typed = { ...values };
      for (const n of NAMES) typed[n] = box.current?.querySelector<HTMLInputElement>(`input[name="${n}"]`)?.value ?? values[n];
      setPicker({ kit, typed, over: keyOf(values) });
    });
    return () => {
      live = false;
    };
    // Fetched once; later values reach the picker through its key.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enhance]);
  if (picker) {
    // New values from the server (a save, another occurrence) start the fields afresh.
    const initial = keyOf(values) === picker.over ? picker.typed : values;
    return (
      <picker.kit.DateTimeFields
        key={keyOf(values)}
        initial={initial}
        errors={{ start: errors.startDate ?? errors.startTime, end: errors.endDate ?? errors.endTime }}
      />
    );
  }
  return (
    <div ref={box} className="grid grid-cols-2 gap-3">
      {NAMES.map((n) => (
        <Field key={n} id={n} label={LABELS[n]} error={errors[n]}>
          <input
            id={n}
            name={n}
            required
            defaultValue={values[n]}
            className={inputClass}
            {...(n.endsWith("Date") ? { type: "date" } : { type: "time", step: 900 })}
            {...(errors[n] ? { "aria-invalid": true, "aria-describedby": `${n}-error` } : {})}
          />
        </Field>
      ))}
    </div>
  );
}
