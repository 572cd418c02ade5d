import { useMemo } from "react";
import { MarkupRows, selectCell } from "~/components/ui/markup-rows";
import { SelectableTHead } from "~/components/ui/row-selection";
import { Table } from "~/components/ui/table";
import { useRowDelegation } from "~/components/ui/row-links";
import { formatDate } from "~/utils/dates";
import { markup, type Html } from "~/utils/markup";
import { formatPence } from "../../domain/money";
import type { InvoiceListItem } from "../queries.server";
import { BADGE_STYLES, INVOICE_STATUS_LABELS, linkShownText } from "./invoice-status";

/** '65%' or '62.5%': the share as the warning states it. */
function percentText(p: number): string {
  return `${Number(p.toFixed(2))}%`;
}

/** The 60% materials warning: an icon for the eye, the same words for a screen reader and on hover. */
function materialsWarning(percentage: number): Html {
  const text = `High materials percentage (${percentText(percentage)} of gross)`;
  return markup`<span class="ml-1 inline-flex items-center text-danger" title="${text}" data-materials-warning><span aria-hidden="true">&#9888;</span><span class="sr-only">${text}</span></span>`;
}

/** A portal submission through a link staff were shown: a mark for the eye, the words for a screen reader and on hover. */
function linkShownMark(name: string): Html {
  const text = linkShownText(name);
  return markup`<span class="ml-1 rounded-full bg-amber-500/15 px-2 py-0.5 text-xs font-normal" title="${text}" data-link-revealed><span aria-hidden="true">Link shown</span><span class="sr-only">${text}</span></span>`;
}

const PORTAL_MARK = markup`<span class="ml-2 rounded-full bg-surface px-2 py-0.5 text-xs font-normal" data-source="portal" title="Submitted through the subcontractor portal">Portal</span>`;

/** The page's rows as markup: the key columns first, then the amounts, dates and the actions this user may take. */
export function invoiceRowsHtml(rows: readonly InvoiceListItem[], canSelect: boolean, canWrite: boolean, bulkFormId: string): Html {
  return markup`${rows.map((r) => {
    const detail = `/cis/invoices/${r.id}`;
    const select = canSelect ? selectCell(r.id, bulkFormId, `Select invoice ${r.invoiceNumber}`) : null;
    const marks = [r.source === "portal" ? PORTAL_MARK : null, r.linkShownTo !== null ? linkShownMark(r.linkShownTo) : null];
    const warning = r.materialsWarning ? materialsWarning(r.materialsPercentage) : null;
    const edit = canWrite && r.status === "draft" ? markup`<a href="${detail}/edit" aria-label="${`Edit invoice ${r.invoiceNumber}`}">Edit</a>` : null;
    return markup`<tr data-row="${r.id}">${select}<th scope="row"><a href="${detail}" class="row-link">${r.invoiceNumber}</a>${marks}</th><td data-net>${formatPence(r.netPaymentP)}</td><td><span class="${BADGE_STYLES[r.status]}" data-status="${r.status}">${INVOICE_STATUS_LABELS[r.status]}</span></td><td>${r.subcontractorName}</td><td data-amounts><div><span class="sr-only">Gross: </span>${formatPence(r.grossP)}</div><div class="cell-note">Materials: ${formatPence(r.materialsP)}${warning}</div></td><td><div>${formatPence(r.cisDeductionP)}</div><div class="cell-note">${r.cisRate}%</div></td><td><div>${formatDate(r.invoiceDate)}</div><div class="cell-note">Paid: ${formatDate(r.paymentDate)}</div></td><td><div class="row-acts"><a href="${detail}" aria-label="${`View invoice ${r.invoiceNumber}`}">View</a>${edit}</div></td></tr>`;
  })}`;
}

/**
 * The invoice table. The key columns come first (number, net payment, status), so a phone shows
 * them before the table's box is scrolled. Row checkboxes belong to the bulk form by its id (the form sits in the
 * toolbar; forms cannot nest). 'Select all' posts the page's ids, so it works without
 * JavaScript too. The selection column is there only for someone who can run a bulk action.
 */
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
  // Plain links and cells per row, written as markup: the body's click handler navigates as Link would (a list page renders 25 rows on every request).
  const delegate = useRowDelegation();
  const markup = useMemo(() => invoiceRowsHtml(rows, canSelect, canWrite, bulkFormId), [rows, canSelect, canWrite, bulkFormId]);
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
      <MarkupRows rows={markup} selected={canSelect ? selected : undefined} onToggle={canSelect ? onToggle : undefined} onClick={delegate.onClick} />
    </Table>
  );
}
