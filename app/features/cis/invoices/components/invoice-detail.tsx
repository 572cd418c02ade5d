import type { ReactNode } from "react";
import { Link } from "react-router";
import { formatDate, formatDateTime } from "~/utils/dates";
import { formatPence } from "../../domain/money";
import { PUBLIC_BODY_NOT_CIS_MESSAGE } from "../../domain/public-bodies";
import type { InvoiceStatus } from "../../domain/types";
import { InvoiceStatusBadge, linkShownText } from "./invoice-status";

/** Everything the detail page shows about one invoice; names already resolved from user ids. */
export type InvoiceDetailView = {
  id: string;
  invoiceNumber: string;
  status: InvoiceStatus;
  source: "staff" | "portal";
  /**
   * Submitted in a portal session opened with a link a staff member was shown: their name (they
   * may not approve or pay it). Null when the link only went by e-mail, or not from the portal.
   */
  linkShownTo: string | null;
  /** Size of the PDF the subcontractor sent with a portal submission; null when none. */
  attachmentBytes: number | null;
  subcontractorId: string;
  subcontractorName: string;
  /** False when the subcontractor has since been deleted: the name stays, the link goes. */
  subcontractorLinked: boolean;
  utrMasked: string | null;
  ninoMasked: string | null;
  invoiceDate: string;
  receivedDate: string | null;
  paymentDate: string | null;
  taxMonth: string;
  taxMonthDisplay: string | null;
  description: string | null;
  grossP: number;
  materialsP: number;
  materialsPercentage: number;
  labourP: number;
  cisRate: number;
  cisDeductionP: number;
  /** Paid (or, until paid, dated) on or after 6 April 2026 to a public body: not a contract payment. */
  outsideCis: boolean;
  vatBaseP: number;
  vatRate: number;
  vatAmountP: number;
  reverseCharge: boolean;
  grossTotalP: number;
  netPaymentP: number;
  materialsJustification: string | null;
  verification: { status: string | null; rate: number | null; reference: string | null } | null;
  createdAt: number;
  createdBy: string | null;
  approvedAt: number | null;
  approvedBy: string | null;
  paidAt: number | null;
  paidBy: string | null;
  cancelledAt: number | null;
  cancelledBy: string | null;
  statement: {
    required: boolean;
    requestedAt: number | null;
    requestedBy: string | null;
    issuedAt: number | null;
    issuedMethod: string | null;
  };
};

const SOURCE_LABELS = { staff: "Staff", portal: "Subcontractor portal" } as const;
const VERIFICATION_LABELS: Record<string, string> = { gross: "Gross (0%)", standard: "Standard (20%)", higher: "Higher (30%)" };
const ISSUE_METHOD_LABELS: Record<string, string> = { email: "Email", portal: "Portal", print: "Print" };

function Item({ label, children, name }: { label: string; children: ReactNode; name?: string }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-4 print:grid print:grid-cols-3 print:py-1" data-field={name}>
      <dt className="text-sm opacity-70">{label}</dt>
      <dd className="mt-1 text-sm sm:col-span-2 sm:mt-0 print:col-span-2 print:mt-0">{children}</dd>
    </div>
  );
}

/** Who and when, 'N/A' when it has not happened. */
function byAt(at: number | null, by: string | null): string {
  if (at === null) return "N/A";
  return by ? `${formatDateTime(at)} by ${by}` : formatDateTime(at);
}

function percent(n: number): string {
  return `${Number(n.toFixed(2))}%`;
}

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-brand border border-line bg-elevated p-4 print:break-inside-avoid print:border-black/30 print:bg-transparent print:p-0 print:pt-2"
    >
      <h3 id={id} className="font-semibold">
        {title}
      </h3>
      {children}
    </section>
  );
}

/** The amounts as a table: it prints as a clean two-column statement of the sums. */
function AmountsTable({ invoice }: { invoice: InvoiceDetailView }) {
  const rows: { key: string; label: string; value: string; strong?: boolean }[] = [
    { key: "gross", label: "Gross", value: formatPence(invoice.grossP) },
    { key: "materials", label: `Materials (${percent(invoice.materialsPercentage)} of gross)`, value: formatPence(invoice.materialsP) },
    { key: "labour", label: "Labour (subject to CIS)", value: formatPence(invoice.labourP) },
    { key: "cis", label: `CIS deduction at ${invoice.cisRate}%`, value: formatPence(invoice.cisDeductionP) },
    { key: "vat-base", label: "VAT base", value: formatPence(invoice.vatBaseP) },
    invoice.reverseCharge
      ? { key: "vat", label: "VAT", value: "Reverse charge" }
      : { key: "vat", label: `VAT at ${invoice.vatRate}%`, value: formatPence(invoice.vatAmountP) },
    { key: "gross-total", label: "Gross total", value: formatPence(invoice.grossTotalP) },
    { key: "net", label: "Net payment", value: formatPence(invoice.netPaymentP), strong: true },
  ];
  return (
    <table className="mt-2 w-full text-sm print:text-base" data-amounts>
      <caption className="sr-only">Amounts</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Item</th>
          <th scope="col">Amount</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-line print:divide-black/20">
        {rows.map((r) => (
          <tr key={r.key} data-amount={r.key} className={r.strong ? "font-semibold" : undefined}>
            <th scope="row" className="py-2 text-left font-normal opacity-80 print:py-1">
              {r.label}
            </th>
            <td className="py-2 text-right tabular-nums print:py-1">{r.value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function AmountsSection({ invoice }: { invoice: InvoiceDetailView }) {
  return (
    <Section id="amounts-heading" title="Amounts">
      <AmountsTable invoice={invoice} />
      {invoice.outsideCis ? (
        <p className="mt-2 rounded-brand border border-line bg-elevated p-2 text-sm font-medium" data-outside-cis>
          {PUBLIC_BODY_NOT_CIS_MESSAGE}
        </p>
      ) : null}
      <dl className="mt-2 divide-y divide-line print:divide-black/20">
        <Item label="Materials justification" name="materialsJustification">
          {invoice.materialsJustification ? <span className="whitespace-pre-wrap">{invoice.materialsJustification}</span> : "N/A"}
        </Item>
      </dl>
    </Section>
  );
}

function HistorySection({ invoice }: { invoice: InvoiceDetailView }) {
  const v = invoice.verification;
  return (
    <Section id="history-heading" title="Approval and Payment">
      <dl className="mt-2 divide-y divide-line print:divide-black/20">
        <Item label="Created" name="created">
          {byAt(invoice.createdAt, invoice.createdBy)}
        </Item>
        <Item label="Approved" name="approved">
          {byAt(invoice.approvedAt, invoice.approvedBy)}
        </Item>
        {v ? (
          <>
            <Item label="Verification status at approval" name="verificationStatus">
              {v.status ? (VERIFICATION_LABELS[v.status] ?? v.status) : "N/A"}
            </Item>
            <Item label="Verification rate at approval" name="verificationRate">
              {v.rate === null ? "N/A" : `${v.rate}%`}
            </Item>
            <Item label="Verification reference" name="verificationReference">
              {v.reference ?? "N/A"}
            </Item>
          </>
        ) : null}
        <Item label="Paid" name="paid">
          {byAt(invoice.paidAt, invoice.paidBy)}
        </Item>
        <Item label="Cancelled" name="cancelled">
          {byAt(invoice.cancelledAt, invoice.cancelledBy)}
        </Item>
      </dl>
    </Section>
  );
}

function StatementSection({ invoice }: { invoice: InvoiceDetailView }) {
  return (
    <Section id="statement-heading" title="Statement">
      <dl className="mt-2 divide-y divide-line print:divide-black/20">
        <Item label="Statement required" name="statementRequired">
          {invoice.statement.required ? "Yes" : "No"}
        </Item>
        <Item label="Requested" name="statementRequested">
          {byAt(invoice.statement.requestedAt, invoice.statement.requestedBy)}
        </Item>
        <Item label="Issued" name="statementIssued">
          {formatDateTime(invoice.statement.issuedAt)}
        </Item>
        <Item label="Issued by" name="statementIssuedMethod">
          {invoice.statement.issuedMethod ? (ISSUE_METHOD_LABELS[invoice.statement.issuedMethod] ?? invoice.statement.issuedMethod) : "N/A"}
        </Item>
      </dl>
    </Section>
  );
}

/** Every field of one invoice, on screen and on paper. */
export function InvoiceDetail({ invoice }: { invoice: InvoiceDetailView }) {
  return (
    <div className="grid gap-6 lg:grid-cols-2 print:block print:space-y-4" data-invoice={invoice.id}>
      <Section id="invoice-heading" title="Invoice Details">
        <dl className="mt-2 divide-y divide-line print:divide-black/20">
          <Item label="Invoice number" name="invoiceNumber">
            {invoice.invoiceNumber || "Untitled"}
          </Item>
          <Item label="Subcontractor" name="subcontractor">
            {invoice.subcontractorLinked ? (
              <Link to={`/cis/subcontractors/${invoice.subcontractorId}`} className="text-accent-ink underline print:text-inherit print:no-underline">
                {invoice.subcontractorName}
              </Link>
            ) : (
              invoice.subcontractorName
            )}
          </Item>
          <Item label="UTR" name="utr">
            <span className="font-mono">{invoice.utrMasked ?? "N/A"}</span>
          </Item>
          {invoice.ninoMasked ? (
            <Item label="National Insurance Number" name="nino">
              <span className="font-mono">{invoice.ninoMasked}</span>
            </Item>
          ) : null}
          <Item label="Status" name="status">
            <InvoiceStatusBadge status={invoice.status} />
          </Item>
          <Item label="Source" name="source">
            {SOURCE_LABELS[invoice.source]}
            {invoice.linkShownTo !== null ? (
              <span className="mt-1 block text-amber-700 dark:text-amber-400" data-link-revealed>
                {linkShownText(invoice.linkShownTo)}
              </span>
            ) : null}
          </Item>
          {invoice.attachmentBytes !== null ? (
            <Item label="Subcontractor's PDF" name="attachment">
              <a href={`/cis/invoices/${invoice.id}/attachment`} download className="text-accent-ink underline">
                {`Download PDF (${Math.max(1, Math.round(invoice.attachmentBytes / 1024))} KB)`}
              </a>
            </Item>
          ) : null}
          <Item label="Invoice date" name="invoiceDate">
            {formatDate(invoice.invoiceDate)}
          </Item>
          <Item label="Received date" name="receivedDate">
            {formatDate(invoice.receivedDate)}
          </Item>
          <Item label="Payment date" name="paymentDate">
            {formatDate(invoice.paymentDate)}
          </Item>
          <Item label="Tax month" name="taxMonth">
            {invoice.taxMonthDisplay ? `${invoice.taxMonth} (${invoice.taxMonthDisplay})` : invoice.taxMonth}
          </Item>
          <Item label="Description" name="description">
            {invoice.description ? <span className="whitespace-pre-wrap">{invoice.description}</span> : "N/A"}
          </Item>
        </dl>
      </Section>

      <AmountsSection invoice={invoice} />

      <HistorySection invoice={invoice} />

      <StatementSection invoice={invoice} />
    </div>
  );
}
