import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
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

type NoticeEditing = { id: string; givenOn: string; firstMonth: string; months: string };
type NoticeFormView = { months: { value: string; label: string }[]; defaultMonth: string; maxMonths: number; editing: NoticeEditing | null };
type Submitted = { errors: Partial<Record<"givenOn" | "firstMonth" | "months", string>>; values: Record<"givenOn" | "firstMonth" | "months", string> };

const controlClass = "block w-full rounded-brand border border-line bg-primary-bg px-3 py-2 text-sm aria-[invalid=true]:border-danger";

/** One labelled control of the notice form with its error beside it (the error's id is `{name}-error`). */
function Control({ name, label, error, children }: { name: string; label: string; error?: string; children: (a11y: object) => ReactNode }) {
  return (
    <div className="space-y-1">
      <label htmlFor={name} className="block text-sm font-medium">
        {label}
      </label>
      {children({ id: name, name, className: controlClass, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${name}-error` : undefined })}
      {error ? (
        <p id={`${name}-error`} className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The notices of no payments the tenant gave HMRC (inactivity declarations on returns, and notices
 * given another way), and the form to record one given another way.
 */
export function NoticesPanel({
  notices,
  form,
  submitted,
  month,
}: {
  notices: NoticeView[];
  form: NoticeFormView | null;
  submitted: Submitted | null;
  month: string;
}) {
  return (
    <section aria-labelledby="notices-heading" className={panelClass} data-testid="notices">
      <h3 id="notices-heading" className="text-lg font-semibold">
        Notices of no payments
      </h3>
      <p className="mt-1 text-sm opacity-80">A month without payments needs no nil return if HMRC was told at least 14 days before it started.</p>
      {notices.length === 0 ? (
        <p className="mt-2 text-sm" data-empty="notices">
          No notices recorded
        </p>
      ) : (
        <ul className="mt-2 space-y-2 text-sm">
          {notices.map((n) => (
            <NoticeItem key={n.id} notice={n} month={month} />
          ))}
        </ul>
      )}
      {form ? <NoticeForm form={form} submitted={submitted} month={month} /> : null}
    </section>
  );
}

const NOTICE_DELETE_QUESTION = "Delete this notice of no payments? The months it covered will need nil returns again unless another notice covers them.";

/** One notice: a declaration says it stays as HMRC was told; one given another way can be corrected or deleted (confirmed first). */
function NoticeItem({ notice: n, month }: { notice: NoticeView; month: string }) {
  return (
    <li data-notice={n.id} className="flex flex-wrap items-center gap-2">
      <span data-notice-text>
        <span className="font-medium">{n.covers}</span> · given on {n.givenOn} · {n.source}
      </span>
      {n.declaration ? <span className="text-xs opacity-80">(what HMRC was told with the return: not editable)</span> : null}
      {n.editable ? (
        <>
          <Link
            to={`/cis/returns?month=${month}&notice=${n.id}#notices-heading`}
            className="text-accent-ink underline"
            aria-label={`Correct the notice given on ${n.givenOn}`}
          >
            Correct
          </Link>
          <Form method="post" onSubmit={confirmThenSubmit(() => NOTICE_DELETE_QUESTION)}>
            <input type="hidden" name="intent" value="notice-delete" />
            <input type="hidden" name="id" value={n.id} />
            <input type="hidden" name="month" value={month} />
            <input type="hidden" name="confirmed" value="" />
            <button type="submit" className="text-danger underline" aria-label={`Delete the notice given on ${n.givenOn}`}>
              Delete
            </button>
          </Form>
        </>
      ) : null}
    </li>
  );
}

/** Records a notice given another way, or corrects the one the page was opened for. */
function NoticeForm({ form, submitted, month }: { form: NoticeFormView; submitted: Submitted | null; month: string }) {
  const errors = submitted?.errors ?? {};
  const values = submitted?.values ?? form.editing ?? undefined;
  return (
    <Form method="post" className="mt-4 grid gap-3 sm:grid-cols-3" data-form="notice" noValidate>
      <input type="hidden" name="intent" value="notice" />
      {form.editing ? <input type="hidden" name="id" value={form.editing.id} /> : null}
      <Control name="givenOn" label="Date given to HMRC" error={errors.givenOn}>
        {(a) => <input {...a} type="date" defaultValue={values?.givenOn ?? ""} />}
      </Control>
      <Control name="firstMonth" label="First tax month covered" error={errors.firstMonth}>
        {(a) => (
          <select {...a} defaultValue={values?.firstMonth ?? form.defaultMonth}>
            {form.months.map((m) => (
              <option key={m.value} value={m.value}>
                {m.label}
              </option>
            ))}
          </select>
        )}
      </Control>
      <Control name="months" label="Months covered" error={errors.months}>
        {(a) => (
          <select {...a} defaultValue={values?.months ?? "1"}>
            {Array.from({ length: form.maxMonths }, (_, i) => (
              <option key={i}>{i + 1}</option>
            ))}
          </select>
        )}
      </Control>
      <div className="sm:col-span-3">
        <SubmitButton variant="secondary" pendingText="Saving..." match={{ intent: "notice" }}>
          {form.editing ? "Save correction" : "Record notice"}
        </SubmitButton>
        {form.editing ? (
          <Link to={`/cis/returns?month=${month}`} className={`${buttonClass("ghost")} ml-2`}>
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
