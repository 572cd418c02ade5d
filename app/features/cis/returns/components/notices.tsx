import { Form } from "react-router";
import { SubmitButton } from "~/components/ui/button";
import { Field, inputClass } from "~/components/ui/field";
import type { MonthNeedView, NoticeView } from "../notices-view";

const panelClass = "rounded-brand border border-line bg-elevated p-5";

/** What the shown month needs when it has no return yet: a nil return, nothing (a notice covers it), or nothing (optional then). */
export function MonthNeed({ need }: { need: MonthNeedView }) {
  const tone = need.kind === "nil_return" ? "border-danger bg-danger/5" : "border-line bg-elevated";
  return (
    <p className={`rounded-brand border p-3 text-sm ${tone}`} data-need={need.kind}>
      {need.text}
    </p>
  );
}

type NoticeFormView = { months: { value: string; label: string }[]; defaultMonth: string; maxMonths: number };
type Submitted = { errors: Partial<Record<"givenOn" | "firstMonth" | "months", string>>; values: Record<"givenOn" | "firstMonth" | "months", string> };

/**
 * The notices of no payments the tenant gave HMRC (inactivity declarations on returns, and notices
 * given another way), and the form to record one given another way.
 */
export function NoticesPanel({ notices, form, submitted }: { notices: NoticeView[]; form: NoticeFormView | null; submitted: Submitted | null }) {
  const errors = submitted?.errors ?? {};
  const values = submitted?.values;
  const describedBy = (id: string, hint = false) =>
    [hint ? `${id}-description` : null, errors[id as keyof typeof errors] ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <section aria-labelledby="notices-heading" className={panelClass} data-testid="notices">
      <h3 id="notices-heading" className="text-lg font-semibold">
        Notices of no payments
      </h3>
      <p className="mt-1 text-sm opacity-80">
        A month with no payments to subcontractors needs no nil return when HMRC was told, at least 14 days before it started, that none would be made.
      </p>
      {notices.length === 0 ? (
        <p className="mt-2 text-sm" data-empty="notices">
          No notices recorded
        </p>
      ) : (
        <ul className="mt-2 space-y-1 text-sm">
          {notices.map((n) => (
            <li key={n.id} data-notice={n.id}>
              <span className="font-medium">{n.covers}</span> · given on {n.givenOn} · {n.source}
            </li>
          ))}
        </ul>
      )}
      {form ? (
        <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-3" data-form="notice" noValidate>
          <input type="hidden" name="intent" value="notice" />
          <Field id="givenOn" label="Date given to HMRC" error={errors.givenOn}>
            <input
              id="givenOn"
              name="givenOn"
              type="date"
              className={inputClass}
              defaultValue={values?.givenOn ?? ""}
              aria-invalid={errors.givenOn ? true : undefined}
              aria-describedby={describedBy("givenOn")}
            />
          </Field>
          <Field id="firstMonth" label="First tax month covered" error={errors.firstMonth}>
            <select
              id="firstMonth"
              name="firstMonth"
              className={inputClass}
              defaultValue={values?.firstMonth ?? form.defaultMonth}
              aria-invalid={errors.firstMonth ? true : undefined}
              aria-describedby={describedBy("firstMonth")}
            >
              {form.months.map((m) => (
                <option key={m.value} value={m.value}>
                  {m.label}
                </option>
              ))}
            </select>
          </Field>
          <Field id="months" label="Months covered" error={errors.months}>
            <select
              id="months"
              name="months"
              className={inputClass}
              defaultValue={values?.months ?? "1"}
              aria-invalid={errors.months ? true : undefined}
              aria-describedby={describedBy("months")}
            >
              {Array.from({ length: form.maxMonths }, (_, i) => String(i + 1)).map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </Field>
          <div className="sm:col-span-3">
            <SubmitButton variant="secondary" pendingText="Recording..." match={{ intent: "notice" }}>
              Record notice
            </SubmitButton>
          </div>
        </Form>
      ) : null}
    </section>
  );
}
