import { Field, inputClass } from "~/components/ui/field";
import { EVENT_STATUSES, EVENT_TYPES, EVENT_VISIBILITIES } from "../domain/constants";
import { STATUS_LABELS, TYPE_LABELS, VISIBILITY_LABELS } from "../domain/labels";
import { WEEKDAY_SHORT } from "../domain/time";
import type { EventFormErrors, EventFormValues } from "../schemas";

/** The attributes that tie a control to its error message, when it has one. */
export const describedBy = (errors: EventFormErrors, name: keyof EventFormValues) =>
  errors[name] ? { "aria-invalid": true, "aria-describedby": `${name}-error` } : {};

/** A labelled list of choices: each option is [value, label]. */
function SelectField({
  name,
  label,
  values,
  errors,
  options,
}: {
  name: "type" | "status" | "visibility" | "calendarId";
  label: string;
  values: EventFormValues;
  errors: EventFormErrors;
  options: [string, string][];
}) {
  return (
    <Field id={name} label={label} error={errors[name]}>
      <select id={name} name={name} defaultValue={values[name]} className={inputClass} {...describedBy(errors, name)}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** Type, status, calendar, visibility and the specific people an event is shared with. */
export function EventOptionsFields({
  values: v,
  errors,
  calendars,
  people,
}: {
  values: EventFormValues;
  errors: EventFormErrors;
  calendars: { id: string; name: string }[];
  people: { id: string; name: string }[];
}) {
  const describe = (name: keyof EventFormValues) => describedBy(errors, name);
  return (
    <>
      <div className="grid gap-3 sm:grid-cols-3">
        <SelectField name="type" label="Type" values={v} errors={errors} options={EVENT_TYPES.map((t) => [t, TYPE_LABELS[t]])} />
        <SelectField name="status" label="Status" values={v} errors={errors} options={EVENT_STATUSES.map((t) => [t, STATUS_LABELS[t]])} />
        <SelectField
          name="calendarId"
          label="Calendar"
          values={v}
          errors={errors}
          options={[["", "Personal Calendar"], ...calendars.map((c): [string, string] => [c.id, c.name])]}
        />
      </div>
      <SelectField name="visibility" label="Visibility" values={v} errors={errors} options={EVENT_VISIBILITIES.map((t) => [t, VISIBILITY_LABELS[t]])} />
      <fieldset className="rounded-brand border border-line p-3">
        <legend className="px-1 text-sm font-medium">Specific people (when visibility is &lsquo;Specific people&rsquo;)</legend>
        {people.length ? (
          <ul className="grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
            {people.map((p) => (
              <li key={p.id}>
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="users" value={p.id} defaultChecked={v.users.includes(p.id)} {...describe("users")} />
                  {p.name}
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm">No team members available</p>
        )}
        {errors.users ? (
          <p id="users-error" role="alert" className="mt-1 text-sm text-danger">
            {errors.users}
          </p>
        ) : null}
      </fieldset>
    </>
  );
}

/** How the event repeats: never, daily, weekly on chosen weekdays, monthly; until a date or a number of times. */
export function RepeatFields({ values: v, errors }: { values: EventFormValues; errors: EventFormErrors }) {
  const describe = (name: keyof EventFormValues) => describedBy(errors, name);
  return (
    <fieldset className="space-y-3 rounded-brand border border-line p-3">
      <legend className="px-1 text-sm font-medium">Repeat</legend>
      <Field id="repeat" label="Repeats" error={errors.repeat}>
        <select id="repeat" name="repeat" defaultValue={v.repeat} className={inputClass} {...describe("repeat")}>
          <option value="none">Does not repeat</option>
          <option value="daily">Every day</option>
          <option value="weekly">Every week</option>
          <option value="monthly">Every month</option>
        </select>
      </Field>
      <fieldset aria-describedby={errors.repeatDays ? "repeatDays-error" : undefined}>
        <legend className="text-sm">On these days (weekly)</legend>
        <div className="mt-1 flex flex-wrap gap-3">
          {WEEKDAY_SHORT.map((d, i) => (
            <label key={d} className="flex items-center gap-1 text-sm">
              <input type="checkbox" name="repeatDays" value={String(i)} defaultChecked={v.repeatDays.includes(String(i))} />
              {d}
            </label>
          ))}
        </div>
        {errors.repeatDays ? (
          <p id="repeatDays-error" role="alert" className="text-sm text-danger">
            {errors.repeatDays}
          </p>
        ) : null}
      </fieldset>
      <div className="grid grid-cols-2 gap-3">
        <Field id="repeatUntil" label="Until (last date)" error={errors.repeatUntil}>
          <input id="repeatUntil" name="repeatUntil" type="date" defaultValue={v.repeatUntil} className={inputClass} {...describe("repeatUntil")} />
        </Field>
        <Field id="repeatCount" label="Or number of times" error={errors.repeatCount}>
          <input
            id="repeatCount"
            name="repeatCount"
            type="number"
            min={1}
            max={500}
            inputMode="numeric"
            defaultValue={v.repeatCount}
            className={inputClass}
            {...describe("repeatCount")}
          />
        </Field>
      </div>
    </fieldset>
  );
}
