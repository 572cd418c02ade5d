import { SubmissionKeyInput } from "~/features/platform";
import { Form } from "react-router";
import { buttonClass, SubmitButton } from "~/components/ui/button";
import { useMemo, type MouseEventHandler } from "react";
import { useRowDelegation } from "~/components/ui/row-links";
import { markup, type Html } from "~/utils/markup";
import type { StatementStatus } from "~/db/enums";
import { formatDate } from "~/utils/dates";
import { formatPence } from "../../domain/money";
import { EMAIL_FAILURE_MESSAGES, resendFailedTitle, STATEMENT_ISSUE_METHODS, type EmailFailure } from "../issue-codes";
import { STATEMENT_ISSUE_METHOD_LABELS, type StatementRowStatus } from "../statement-codes";

type InvoiceView = { id: string; invoiceNumber: string; paymentDate: string | null; grossP: number; cisDeductionP: number };
type IssueMethod = keyof typeof STATEMENT_ISSUE_METHOD_LABELS;

export type StatementRowView = {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  status: StatementRowStatus;
  invoiceCount: number;
  cisDeductionP: number;
  invoices: InvoiceView[];
  statement: {
    id: string;
    status: StatementStatus;
    generatedAt: number;
    issuedAt: number | null;
    issuedMethod: IssueMethod | null;
    emailFailure: EmailFailure | null;
  } | null;
  notOnStatement: InvoiceView[];
};

/** `issueKeys`: each issuable statement's one-time submission key, by statement id. */
export type StatementListPerms = { canIssue: boolean; emailStatements: boolean; issueKeys?: Readonly<Record<string, string>> };

const STATUS_LABELS: Readonly<Record<StatementRowStatus, string>> = { pending: "Pending", generated: "Generated", issued: "Issued" };
const STATUS_STYLE: Readonly<Record<StatementRowStatus, string>> = {
  pending: "bg-amber-500/15",
  generated: "bg-accent/15",
  issued: "bg-success/15",
};

export function StatementStatusBadge({ status }: { status: StatementRowStatus }) {
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-medium ${STATUS_STYLE[status]}`} data-status={status}>
      {STATUS_LABELS[status]}
    </span>
  );
}

/**
 * A statement's invoices as markup (ADR 0079): a page draws this table for each of its 25
 * subcontractors, and React would write every attribute of every cell. The same markup as the
 * Table components write; `id` names the caption, unique on the page.
 */
function invoiceTableHtml(id: string, caption: string, invoices: readonly InvoiceView[]): Html {
  const rows = invoices.map(
    (inv) =>
      markup`<tr class="border-b border-line align-top last:border-b-0" data-invoice="${inv.id}"><td class="px-2 py-1.5"><a href="/cis/invoices/${inv.id}" class="text-accent-ink underline">${inv.invoiceNumber}</a></td><td class="px-2 py-1.5">${formatDate(inv.paymentDate)}</td><td class="px-2 py-1.5 text-right tabular-nums">${formatPence(inv.grossP)}</td><td class="px-2 py-1.5 text-right tabular-nums">${formatPence(inv.cisDeductionP)}</td></tr>`,
  );
  return markup`<div role="region" aria-labelledby="${id}" tabindex="0" class="relative overflow-x-auto focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-accent-ink"><table class="w-full text-left text-sm [&amp;_td_a]:whitespace-nowrap [&amp;_td_button]:whitespace-nowrap"><caption id="${id}" class="sr-only">${caption}</caption><thead><tr class="border-b border-line">${INVOICE_HEADINGS}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

const INVOICE_HEADINGS = markup`<th scope="col" class="px-2 py-1.5 font-semibold">Invoice</th><th scope="col" class="px-2 py-1.5 font-semibold">Payment date</th><th scope="col" class="px-2 py-1.5 font-semibold text-right">Gross</th><th scope="col" class="px-2 py-1.5 font-semibold text-right">CIS</th>`;

/** The invoice table of a row; `onClick` is the list's delegation, so its plain links go through the router. */
function InvoiceTable({ id, caption, invoices, onClick }: { id: string; caption: string; invoices: InvoiceView[]; onClick: MouseEventHandler<HTMLElement> }) {
  const html = useMemo(() => invoiceTableHtml(id, caption, invoices), [id, caption, invoices]);
  return <div onClick={onClick} dangerouslySetInnerHTML={html} />;
}

function GenerateForm({ row, month, filter, page }: { row: StatementRowView; month: string; filter: string; page: number }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value="generate" />
      <input type="hidden" name="subcontractorId" value={row.subcontractorId} />
      <input type="hidden" name="month" value={month} />
      <input type="hidden" name="filter" value={filter} />
      <input type="hidden" name="page" value={page} />
      <SubmitButton
        pendingText="Generating..."
        match={{ intent: "generate", subcontractorId: row.subcontractorId }}
        aria-label={`Generate statement for ${row.name}`}
      >
        Generate
      </SubmitButton>
    </Form>
  );
}

function IssueForms({
  statementId,
  name,
  returnTo,
  emailStatements,
  submissionKey,
}: {
  statementId: string;
  name: string;
  returnTo: string;
  emailStatements: boolean;
  submissionKey?: string;
}) {
  const action = `/cis/statements/${statementId}/issue`;
  const methods: readonly IssueMethod[] = emailStatements ? STATEMENT_ISSUE_METHODS : STATEMENT_ISSUE_METHODS.filter((m) => m !== "email");
  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Issue statement for ${name}`} data-issue-actions>
      <span className="text-sm font-medium">Issue:</span>
      {methods.map((m) => (
        <Form key={m} method="post" action={action}>
          <input type="hidden" name="method" value={m} />
          <input type="hidden" name="returnTo" value={returnTo} />
          {submissionKey ? <SubmissionKeyInput value={submissionKey} /> : null}
          <SubmitButton action={action} match={{ method: m }} pendingText="Issuing..." variant="secondary" aria-label={`Issue statement for ${name} by ${m}`}>
            {STATEMENT_ISSUE_METHOD_LABELS[m]}
          </SubmitButton>
        </Form>
      ))}
    </div>
  );
}

/** Sends an issued statement's failed e-mail again: a plain POST form, so it works without JavaScript. */
function ResendForm({ statementId, name, returnTo }: { statementId: string; name: string; returnTo: string }) {
  const action = `/cis/statements/${statementId}/resend`;
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="returnTo" value={returnTo} />
      <SubmitButton action={action} pendingText="Sending..." variant="secondary" aria-label={`Resend statement e-mail to ${name}`}>
        Resend
      </SubmitButton>
    </Form>
  );
}

function StatementActions({
  row,
  perms,
  month,
  filter,
  page,
  returnTo,
}: {
  row: StatementRowView;
  perms: StatementListPerms;
  month: string;
  filter: string;
  page: number;
  returnTo: string;
}) {
  const s = row.statement;
  if (!s) {
    return perms.canIssue ? (
      <GenerateForm row={row} month={month} filter={filter} page={page} />
    ) : (
      <p className="text-sm opacity-70">No statement generated yet.</p>
    );
  }
  const download = `/cis/statements/${s.id}/download`;
  return (
    <div className="space-y-2">
      <p className="text-sm">
        {`Generated ${formatDate(s.generatedAt)}`}
        {s.status === "issued" ? (
          <span
            data-issued
          >{` · Issued by ${s.issuedMethod ? STATEMENT_ISSUE_METHOD_LABELS[s.issuedMethod].toLowerCase() : "N/A"} on ${formatDate(s.issuedAt)}`}</span>
        ) : null}
      </p>
      <div className="flex flex-wrap gap-2" data-downloads>
        <a href={`${download}?format=html`} className={buttonClass("secondary")} aria-label={`Download HTML statement for ${row.name}`}>
          Download HTML
        </a>
        <a href={`${download}?format=pdf`} className={buttonClass("secondary")} aria-label={`Download PDF statement for ${row.name}`}>
          Download PDF
        </a>
      </div>
      {s.emailFailure ? (
        <div className="flex flex-wrap items-center gap-2 rounded-brand border border-danger bg-danger/10 p-3" data-email-failure={s.emailFailure}>
          <p className="text-sm font-medium">{resendFailedTitle(EMAIL_FAILURE_MESSAGES[s.emailFailure])}</p>
          {perms.canIssue ? <ResendForm statementId={s.id} name={row.name} returnTo={returnTo} /> : null}
        </div>
      ) : null}
      {s.status === "generated" && perms.canIssue ? (
        <IssueForms statementId={s.id} name={row.name} returnTo={returnTo} emailStatements={perms.emailStatements} submissionKey={perms.issueKeys?.[s.id]} />
      ) : null}
    </div>
  );
}

/** 'Statements by Subcontractor': one expandable row each (details/summary, so it opens without JavaScript), one page of them. */
export function StatementList({
  rows,
  perms,
  month,
  filter,
  page,
  returnTo,
}: {
  rows: StatementRowView[];
  perms: StatementListPerms;
  month: string;
  filter: string;
  page: number;
  returnTo: string;
}) {
  // One delegation for every row's invoice tables (not on the list: its download links are the browser's).
  const delegate = useRowDelegation();
  return (
    <ul className="divide-y divide-line rounded-brand border border-line bg-elevated" data-statement-list>
      {rows.map((row) => (
        <li key={row.subcontractorId} id={`statement-${row.subcontractorId}`} data-subcontractor={row.subcontractorId} data-row-status={row.status}>
          <details className="group">
            <summary className="flex cursor-pointer flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3 hover:bg-surface">
              <span className="min-w-48 font-medium" data-name>
                {row.name}
              </span>
              <span className="text-sm opacity-70" data-utr>
                {`UTR ${row.utrMasked ?? "N/A"}`}
              </span>
              <span className="text-sm" data-invoice-count>
                {row.invoiceCount === 1 ? "1 invoice" : `${row.invoiceCount} invoices`}
              </span>
              <span className="text-sm tabular-nums" data-total-cis>
                {`CIS ${formatPence(row.cisDeductionP)}`}
              </span>
              <span className="ml-auto flex items-center gap-2">
                {row.statement?.emailFailure ? (
                  <span className="rounded-full bg-danger/15 px-2 py-0.5 text-xs font-medium" data-email-not-sent>
                    E-mail not sent
                  </span>
                ) : null}
                <StatementStatusBadge status={row.status} />
              </span>
            </summary>
            <div className="space-y-4 border-t border-line px-4 py-3">
              <InvoiceTable id={`invoices-${row.subcontractorId}`} caption={`Invoices of ${row.name}`} invoices={row.invoices} onClick={delegate.onClick} />
              {row.notOnStatement.length > 0 ? (
                <div className="space-y-2 rounded-brand border border-amber-500 bg-amber-500/10 p-3" data-not-on-statement>
                  <p className="text-sm">
                    {row.notOnStatement.length === 1 ? "1 invoice was" : `${row.notOnStatement.length} invoices were`} paid after this tax month&apos;s
                    statement was generated and {row.notOnStatement.length === 1 ? "is" : "are"} not on it: a subcontractor has one statement per tax month.
                  </p>
                  <InvoiceTable
                    id={`late-invoices-${row.subcontractorId}`}
                    caption={`Invoices of ${row.name} not on the statement`}
                    invoices={row.notOnStatement}
                    onClick={delegate.onClick}
                  />
                </div>
              ) : null}
              <StatementActions row={row} perms={perms} month={month} filter={filter} page={page} returnTo={returnTo} />
            </div>
          </details>
        </li>
      ))}
    </ul>
  );
}
