import type { InvoiceStatus } from "../../domain/types";

/** How each status reads on screen; the list, the detail page and the export share these words. */
export const INVOICE_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  draft: "Draft",
  portal_draft: "Portal submission",
  approved: "Approved",
  paid: "Paid",
  cancelled: "Cancelled",
};

/**
 * The mark of an invoice sent through a portal link a staff member saw (detail page and list). It
 * lives here rather than beside the detail view so that the list does not load the detail's code.
 */
export function linkShownText(name: string): string {
  return `Submitted through a link shown to ${name}`;
}

// Whole class strings, written once: the list renders a badge per row on every request (as markup).
export const BADGE_STYLES: Readonly<Record<InvoiceStatus, string>> = {
  draft: "badge bg-surface",
  portal_draft: "badge bg-danger/10",
  approved: "badge bg-accent/15",
  paid: "badge bg-success/15",
  cancelled: "badge bg-surface opacity-80 line-through",
};

export function InvoiceStatusBadge({ status }: { status: InvoiceStatus }) {
  return (
    <span className={BADGE_STYLES[status]} data-status={status}>
      {INVOICE_STATUS_LABELS[status]}
    </span>
  );
}
