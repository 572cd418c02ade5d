import { SelectableTHead, SelectRowCell } from "~/components/ui/row-selection";
import { Table } from "~/components/ui/table";
import { useRowDelegation } from "~/components/ui/row-links";
import { formatDate } from "~/utils/dates";
import { formatPence } from "../../domain/money";
import type { InvoiceListItem } from "../queries.server";
import { InvoiceStatusBadge, linkShownText } from "./invoice-status";

/** '65%' or '62.5%': the share as the warning states it. */
function percentText(p: number): string {
  return `${Number(p.toFixed(2))}%`;
}

/** The 60% materials warning: an icon for the eye, the same words for a screen reader and on hover. */
function MaterialsWarning({ percentage }: { percentage: number }) {
  const text = `High materials percentage (${percentText(percentage)} of gross)`;
  return (
    <span className="ml-1 inline-flex items-center text-danger" title={text} data-materials-warning>
      <span aria-hidden="true">⚠</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}

/** A portal submission through a link staff were shown: a mark for the eye, the words for a screen reader and on hover. */
function LinkShownMark({ name }: { name: string }) {
  const text = linkShownText(name);
  return (
    <span className="ml-1 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs font-normal" title={text} data-link-revealed>
      <span aria-hidden="true">Link shown</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}

/**
 * The invoice table. The key columns come first (number, net payment, status), so a phone shows
 * them before the table's box is scrolled. Row checkboxes belong to the bulk form by its id (the form sits in the
 * toolbar; forms cannot nest). 'Select all' posts the page's ids, so it works without
 * JavaScript too. The selection column is there only for someone who can run a bulk action.
 */
// eslint-disable-next-line max-lines-per-function -- one table: the header and the row share the column choices and sort state
export function InvoiceTable({
  rows,
  canSelect,
  canWrite,
  bulkFormId,
  selected,
  onToggle,
  onToggleAll,
}: {
  rows: InvoiceListItem[];
  canSelect: boolean;
  canWrite: boolean;
  bulkFormId: string;
  selected: Set<string>;
  onToggle: (id: string, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
}) {
  // Plain links and cells per row: the body's click handler navigates as Link would (a list page renders 25 rows on every request).
  const delegate = useRowDelegation();
  return (
    <Table caption="Invoices" scrollClassName="overflow-x-auto rounded-brand border border-line">
      <SelectableTHead
        selectable={canSelect}
        rowIds={rows.map((r) => r.id)}
        selected={selected}
        onToggleAll={onToggleAll}
        formId={bulkFormId}
        selectAllLabel="Select all invoices on this page"
        columns={["Invoice", "Net", "Status", "Subcontractor", "Amounts", "CIS", "Dates", "Actions"]}
      />
      <tbody className="rows" onClick={delegate.onClick}>
        {rows.map((r) => (
          <tr key={r.id} data-row={r.id}>
            {canSelect ? (
              <SelectRowCell bare id={r.id} checked={selected.has(r.id)} onToggle={onToggle} formId={bulkFormId} label={`Select invoice ${r.invoiceNumber}`} />
            ) : null}
            <th scope="row">
              <a href={`/cis/invoices/${r.id}`} className="row-link">
                {r.invoiceNumber}
              </a>
              {r.source === "portal" ? (
                <span
                  className="ml-2 rounded-full bg-surface px-2 py-0.5 text-xs font-normal"
                  data-source="portal"
                  title="Submitted through the subcontractor portal"
                >
                  Portal
                </span>
              ) : null}
              {r.linkShownTo !== null ? <LinkShownMark name={r.linkShownTo} /> : null}
            </th>
            <td data-net>{formatPence(r.netPaymentP)}</td>
            <td>
              <InvoiceStatusBadge status={r.status} />
            </td>
            <td>{r.subcontractorName}</td>
            <td data-amounts>
              <div>
                <span className="sr-only">Gross: </span>
                {formatPence(r.grossP)}
              </div>
              <div className="cell-note">
                {`Materials: ${formatPence(r.materialsP)}`}
                {r.materialsWarning ? <MaterialsWarning percentage={r.materialsPercentage} /> : null}
              </div>
            </td>
            <td>
              <div>{formatPence(r.cisDeductionP)}</div>
              <div className="cell-note">{`${r.cisRate}%`}</div>
            </td>
            <td>
              <div>{formatDate(r.invoiceDate)}</div>
              <div className="cell-note">{`Paid: ${formatDate(r.paymentDate)}`}</div>
            </td>
            <td>
              <div className="row-acts">
                <a href={`/cis/invoices/${r.id}`} aria-label={`View invoice ${r.invoiceNumber}`}>
                  View
                </a>
                {canWrite && r.status === "draft" ? (
                  <a href={`/cis/invoices/${r.id}/edit`} aria-label={`Edit invoice ${r.invoiceNumber}`}>
                    Edit
                  </a>
                ) : null}
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
