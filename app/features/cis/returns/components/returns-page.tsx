import { Form, Link } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { confirmThenSubmit } from "~/components/ui/confirm-then-submit";
import { SubmissionKeyInput } from "~/features/platform";
import { StatCards } from "~/components/ui/stat-cards";
import { Table, TBody, TD, TH, THead } from "~/components/ui/table";
import { RETURN_VALID_MESSAGE } from "../../domain/return-validation";
import { NO_HISTORY, NO_RETURN_FOR_MONTH, NOT_COMPILED } from "../return-codes";
import type { ReturnIssueView, ReturnLineView, ReturnView } from "../view.server";

const panelClass = "rounded-brand border border-line bg-elevated p-5";

export type MonthView = {
  label: string;
  displayLabel: string;
  filingDeadline: string;
  paymentDeadline: string;
  previous: string;
  next: string;
  /** Whether this is the tax month we are in now (London). */
  isCurrent: boolean;
  /** '6 days overdue' when the month's return is overdue, else null. */
  overdue: string | null;
};

export type ReturnIntent = "compile" | "nil" | "amend" | "unlock";

/** What this person may do to the month's return now: scopes, status and the development flag, all decided on the server. */
export type ReturnActionsView = {
  compile: boolean;
  recompile: boolean;
  /** `oneStep`: the person may also send it, so Nil Return compiles and sends at once (with its submission key). */
  nil: { show: boolean; confirm: string; oneStep: { submissionKey: string } | null };
  amend: { show: boolean; confirm: string };
  unlock: { show: boolean; confirm: string };
  /** Shown to holders of cis.ret.submit; `reason` says why it is disabled. */
  submit: { show: boolean; href: string; reason: string | null };
  exportCsv: boolean;
};

export function CurrentMonthCard({ month, ret }: { month: MonthView; ret: ReturnView | null }) {
  return (
    <section aria-labelledby="current-month-heading" className={panelClass} data-testid="current-month">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="current-month-heading" className="text-lg font-semibold">
          {month.isCurrent ? "Current Tax Month" : "Tax Month"}
        </h3>
        <nav aria-label="Tax months" className="flex gap-2 text-sm">
          <Link to={`/cis/returns?month=${month.previous}`} className={buttonClass("ghost")}>
            Previous month
          </Link>
          <Link to={`/cis/returns?month=${month.next}`} className={buttonClass("ghost")}>
            Next month
          </Link>
        </nav>
      </div>
      <dl className="mt-3 grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <dt className="text-sm opacity-70">Period</dt>
          <dd data-field="period">{month.displayLabel}</dd>
        </div>
        <div>
          <dt className="text-sm opacity-70">Filing Deadline</dt>
          <dd data-field="filing-deadline">{month.filingDeadline}</dd>
        </div>
        <div>
          <dt className="text-sm opacity-70">Payment Deadline</dt>
          <dd data-field="payment-deadline">{month.paymentDeadline}</dd>
        </div>
        <div>
          <dt className="text-sm opacity-70">Status</dt>
          <dd data-field="status" data-status={ret?.status ?? "none"}>
            {ret ? (
              <>
                {ret.statusLabel}
                {ret.locked ? " (locked)" : ""}
              </>
            ) : (
              NOT_COMPILED
            )}
          </dd>
          {month.overdue ? (
            <dd className="mt-1 inline-block rounded-brand bg-danger/10 px-2 text-sm font-semibold text-danger" data-field="overdue">
              Overdue: {month.overdue}
            </dd>
          ) : null}
        </div>
      </dl>
      {ret ? (
        <p className="mt-3 text-sm opacity-80" data-field="return-id">
          Return {ret.id}
          {ret.amendmentOf ? `, amending ${ret.amendmentOf}` : ""} · compiled {ret.compiledAt}
          {ret.submittedAt ? ` · submitted ${ret.submittedAt}` : ""}
          {ret.submissionRef ? ` · reference ${ret.submissionRef}` : ""}
        </p>
      ) : (
        <p className="mt-3 text-sm" data-empty="return">
          {NO_RETURN_FOR_MONTH}
        </p>
      )}
    </section>
  );
}

export function ReturnTotals({ ret }: { ret: ReturnView }) {
  return (
    <StatCards
      cards={[
        { label: "Subcontractors", value: ret.totals.subcontractors },
        { label: "Total CIS Deducted", value: ret.totals.cis },
        { label: "Total Gross", value: ret.totals.gross },
      ]}
    />
  );
}

/** A locked return is one HMRC accepted: a success, said as one (not as a refusal to submit). */
export function FiledPanel({ ret }: { ret: ReturnView }) {
  return (
    <section role="status" className="rounded-brand border border-success bg-success/10 p-4 text-sm" data-testid="return-filed">
      <p className="font-semibold text-success">
        Submitted to HMRC on {ret.submittedAt ?? "N/A"} — accepted
        {ret.irmark ? `; IRmark ${ret.irmark}` : ""}
      </p>
      {ret.submissionRef ? <p className="mt-1">HMRC reference {ret.submissionRef}</p> : null}
    </section>
  );
}

/** The return's validation: every issue listed, or the success sentence. */
export function ValidationPanel({ ret, issues }: { ret: ReturnView; issues: ReturnIssueView[] }) {
  const needsRecompile = ret.status === "draft" && ret.issues.length === 0;
  return (
    <section aria-labelledby="validation-heading" className={panelClass} data-testid="validation">
      <h3 id="validation-heading" className="font-semibold">
        Validation
      </h3>
      {ret.issues.length > 0 ? (
        <ul className="mt-2 list-disc space-y-2 pl-5 text-sm" data-issues>
          {issues.map((issue) => (
            <li key={issue.text} data-issue={issue.code}>
              <span className="text-danger">{issue.text}</span>
              <IssueFixes issue={issue} />
            </li>
          ))}
        </ul>
      ) : needsRecompile ? (
        <p className="mt-2 text-sm">Recompile the return to validate it.</p>
      ) : (
        <p className="mt-2 text-sm text-success" data-valid>
          {RETURN_VALID_MESSAGE}
        </p>
      )}
    </section>
  );
}

/** One intent button in its own form; the confirmed ones ask first (dialog with JavaScript, server step without). */
function IntentForm({
  intent,
  month,
  id,
  label,
  pendingText,
  confirm,
  variant = "secondary",
}: {
  intent: ReturnIntent;
  month: string;
  id?: string;
  label: string;
  pendingText: string;
  confirm?: string;
  variant?: "primary" | "secondary" | "danger";
}) {
  return (
    <Form method="post" onSubmit={confirm ? confirmThenSubmit(() => confirm) : undefined}>
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="month" value={month} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {confirm ? <input type="hidden" name="confirmed" value="" /> : null}
      <SubmitButton variant={variant} pendingText={pendingText} match={{ intent }}>
        {label}
      </SubmitButton>
    </Form>
  );
}

/**
 * Nil Return in one step: the box confirms it (with or without JavaScript) and is the declaration
 * that the information is correct; the inactivity declaration is optional.
 */
function NilSubmitForm({ month, submissionKey, error }: { month: string; submissionKey: string; error: string | null }) {
  return (
    <Form method="post" className="w-full max-w-xl space-y-2 rounded-brand border border-line p-3" data-testid="nil-submit">
      <input type="hidden" name="intent" value="nil-submit" />
      <input type="hidden" name="month" value={month} />
      <SubmissionKeyInput value={submissionKey} />
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name="confirmed"
          value="yes"
          required
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? "nil-confirm-error" : undefined}
        />
        <span>No payments were made to subcontractors in this month, and the information is correct: send a nil return to HMRC.</span>
      </label>
      {error ? (
        <p id="nil-confirm-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : null}
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" name="inactivity" value="yes" />
        <span>No payments will be made in the next six months either (the inactivity declaration: no nil returns are due for them).</span>
      </label>
      <SubmitButton variant="primary" pendingText="Sending..." match={{ intent: "nil-submit" }}>
        Nil Return
      </SubmitButton>
    </Form>
  );
}

/** Export CSV posts to the resource route, which answers with the file (a full document request, never a client navigation). */
export function ExportForm({ id, label = "Export CSV" }: { id: string; label?: string }) {
  return (
    <Form method="post" action="/cis/returns/export" reloadDocument>
      <input type="hidden" name="id" value={id} />
      <button type="submit" className={buttonClass("secondary")} aria-label={`${label} of return ${id}`}>
        {label}
      </button>
    </Form>
  );
}

export function ReturnActions({
  month,
  ret,
  actions,
  nilError = null,
}: {
  month: string;
  ret: ReturnView | null;
  actions: ReturnActionsView;
  nilError?: string | null;
}) {
  return (
    <div className="flex flex-wrap items-start gap-2" data-testid="return-actions">
      {actions.compile ? <IntentForm intent="compile" month={month} label="Compile Return" pendingText="Compiling..." variant="primary" /> : null}
      {actions.recompile ? <IntentForm intent="compile" month={month} label="Recompile" pendingText="Compiling..." /> : null}
      {actions.nil.show && actions.nil.oneStep ? <NilSubmitForm month={month} submissionKey={actions.nil.oneStep.submissionKey} error={nilError} /> : null}
      {actions.nil.show && !actions.nil.oneStep ? (
        <IntentForm intent="nil" month={month} label="Nil Return" pendingText="Creating..." confirm={actions.nil.confirm} />
      ) : null}
      {actions.submit.show ? (
        actions.submit.reason === null ? (
          <Link to={actions.submit.href} className={buttonClass("primary")} data-submit="enabled">
            Submit Return
          </Link>
        ) : (
          <span className="inline-flex flex-col gap-1">
            <button type="button" disabled aria-describedby="submit-reason" className={buttonClass("primary")} data-submit="disabled">
              Submit Return
            </button>
            <span id="submit-reason" className="max-w-xs text-xs opacity-80">
              {actions.submit.reason}
            </span>
          </span>
        )
      ) : null}
      {actions.exportCsv && ret ? <ExportForm id={ret.id} /> : null}
      {actions.amend.show && ret ? (
        <IntentForm intent="amend" month={month} id={ret.id} label="Amend" pendingText="Creating..." confirm={actions.amend.confirm} />
      ) : null}
      {actions.unlock.show && ret ? (
        <IntentForm
          intent="unlock"
          month={month}
          id={ret.id}
          label="Unlock (Testing)"
          pendingText="Unlocking..."
          confirm={actions.unlock.confirm}
          variant="danger"
        />
      ) : null}
    </div>
  );
}

export function ReturnLinesTable({ lines, caption }: { lines: ReturnLineView[]; caption: string }) {
  return (
    <Table caption={caption} density="compact">
      <THead>
        <TH>Subcontractor</TH>
        <TH>UTR</TH>
        <TH>NINO</TH>
        <TH className="text-right">Gross</TH>
        <TH className="text-right">Materials</TH>
        <TH className="text-right">CIS Deducted</TH>
        <TH className="text-right">CIS Rate</TH>
        <TH className="text-right">Invoices</TH>
        <TH>Statements</TH>
      </THead>
      <TBody>
        {lines.map((l) => (
          <tr key={l.subcontractorId} className="border-b border-line" data-line={l.subcontractorId}>
            <TD>{l.name}</TD>
            <TD>{l.utrMasked}</TD>
            <TD>{l.ninoMasked}</TD>
            <TD className="text-right">{l.gross}</TD>
            <TD className="text-right">{l.materials}</TD>
            <TD className="text-right">{l.cis}</TD>
            <TD className="text-right">{l.cisRate}%</TD>
            <TD className="text-right">{l.invoiceCount}</TD>
            <TD>{l.statements}</TD>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}

export function HistoricalReturns({ items, canExport }: { items: ReturnView[]; canExport: boolean }) {
  return (
    <section aria-labelledby="history-heading" className={panelClass} data-testid="history">
      <h3 id="history-heading" className="text-lg font-semibold">
        Historical Returns
      </h3>
      {items.length === 0 ? (
        <p className="mt-2 text-sm" data-empty="history">
          {NO_HISTORY}
        </p>
      ) : (
        <ul className="mt-3 space-y-2">
          {items.map((r) => (
            <li key={r.id} data-history={r.id}>
              <details className="rounded-brand border border-line">
                <summary className="cursor-pointer p-3">
                  <span className="font-medium">{r.periodDisplay}</span> · {r.id} · {r.statusLabel}
                  {r.locked ? " (locked)" : ""} · CIS {r.totals.cis}
                </summary>
                <div className="space-y-3 border-t border-line p-3">
                  <dl className="grid gap-3 sm:grid-cols-3">
                    <div>
                      <dt className="text-sm opacity-70">Total Gross</dt>
                      <dd>{r.totals.gross}</dd>
                    </div>
                    <div>
                      <dt className="text-sm opacity-70">Total Materials</dt>
                      <dd>{r.totals.materials}</dd>
                    </div>
                    <div>
                      <dt className="text-sm opacity-70">Total CIS</dt>
                      <dd>{r.totals.cis}</dd>
                    </div>
                  </dl>
                  {r.lines.length > 0 ? <ReturnLinesTable lines={r.lines} caption={`Lines of return ${r.id}`} /> : null}
                  {r.moreLines > 0 ? <p className="text-sm opacity-80">{`and ${r.moreLines} more in the CSV export`}</p> : null}
                  {canExport ? <ExportForm id={r.id} /> : null}
                </div>
              </details>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The server-rendered confirmation step (no JavaScript): the question, then Confirm or Go back. */
export function ConfirmStep({ intent, text, month, id }: { intent: ReturnIntent | "notice-delete"; text: string; month: string; id?: string }) {
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="rounded-brand border border-danger bg-danger/5 p-4" data-confirm={intent}>
      <h3 id="confirm-title" className="font-semibold">
        {text}
      </h3>
      <Form method="post" className="mt-4 flex gap-2">
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="month" value={month} />
        {id ? <input type="hidden" name="id" value={id} /> : null}
        <input type="hidden" name="confirmed" value="yes" />
        <button type="submit" className={buttonClass("danger")}>
          Confirm
        </button>
        <Link to={`/cis/returns?month=${month}`} className={buttonClass("secondary")}>
          Go back
        </Link>
      </Form>
    </section>
  );
}

/** Where an issue is fixed: its links (a statement, a subcontractor's page) and a note. */
function IssueFixes({ issue }: { issue: ReturnIssueView | undefined }) {
  if (!issue) return null;
  return (
    <>
      {issue.links.map((l) => (
        <span key={l.href}>
          {" · "}
          <Link to={l.href} className="underline">
            {l.label}
          </Link>
        </span>
      ))}
      {issue.note ? <span className="block opacity-80">{issue.note}</span> : null}
    </>
  );
}

/**
 * After a compile that found problems: the 'Validation Issues' dialog listing them (the return is
 * saved as draft), each with the links to where it is fixed (`views`, the page's issue views).
 */
export function ValidationIssuesDialog({ issues, views }: { issues: string[]; views: ReturnIssueView[] }) {
  return (
    <section role="alertdialog" aria-labelledby="issues-title" className="rounded-brand border border-danger bg-danger/5 p-4" data-dialog="validation-issues">
      <h3 id="issues-title" className="font-semibold">
        Validation Issues
      </h3>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
        {issues.map((i) => (
          <li key={i}>
            <span>{i}</span>
            <IssueFixes issue={views.find((v) => v.text === i)} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function ActionError({ title, message }: { title: string; message: string }) {
  return (
    <div role="alert" className="rounded-brand border border-danger bg-danger/10 p-3 text-sm" data-action-error>
      <p className="font-semibold">{title}</p>
      <p>{message}</p>
    </div>
  );
}
