import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import { MembersFieldset } from "./members-fieldset";
import { CALENDAR_TYPE_LABELS } from "../domain/labels";
import { CALENDAR_COLOURS, CALENDAR_TYPES } from "../domain/constants";
import type { CalendarFormErrors, CalendarFormValues } from "../schemas";

/** The create / edit form of a calendar: name, colour, type and members. */
export function CalendarForm({
  idPrefix,
  values,
  errors,
  people,
  intent,
  calendarId,
  submitLabel,
}: {
  idPrefix: string;
  values: CalendarFormValues;
  errors: CalendarFormErrors;
  people: { id: string; name: string }[];
  intent: "create" | "update";
  calendarId?: string;
  submitLabel: string;
}) {
  const id = (n: string) => `${idPrefix}-${n}`;
  const invalid = (n: keyof CalendarFormValues) => (errors[n] ? { "aria-invalid": true, "aria-describedby": `${id(n)}-error` } : {});
  return (
    <Form method="post" className="space-y-3" noValidate>
      <input type="hidden" name="intent" value={intent} />
      {calendarId ? <input type="hidden" name="id" value={calendarId} /> : null}
      <div className="grid gap-3 sm:grid-cols-3">
        <Field id={id("name")} label="Name" error={errors.name}>
          <input id={id("name")} name="name" required maxLength={80} defaultValue={values.name} className={inputClass} {...invalid("name")} />
        </Field>
        <Field id={id("color")} label="Colour" error={errors.color}>
          <select id={id("color")} name="color" defaultValue={values.color || CALENDAR_COLOURS[0]} className={inputClass} {...invalid("color")}>
            {CALENDAR_COLOURS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <Field id={id("type")} label="Type" error={errors.type}>
          <select id={id("type")} name="type" defaultValue={values.type || "team"} className={inputClass} {...invalid("type")}>
            {CALENDAR_TYPES.map((t) => (
              <option key={t} value={t}>
                {CALENDAR_TYPE_LABELS[t]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <MembersFieldset people={people} chosen={values.members} error={errors.members} errorId={`${id("members")}-error`} />
      <SubmitButton pendingText="Saving...">{submitLabel}</SubmitButton>
    </Form>
  );
}
