import { formatPence } from "~/features/cis";
import type { PortalInvoice } from "~/features/cis/index.server";
import { formatDate } from "~/utils/dates";
import type { PortalInvoiceItem } from "./components/portal-invoices";

/** A stored invoice as the portal's table shows it. */
export function portalInvoiceItem(row: PortalInvoice): PortalInvoiceItem {
  return {
    id: row.id,
    invoiceNumber: row.invoiceNumber,
    invoiceDate: formatDate(row.invoiceDate),
    status: row.status,
    gross: formatPence(row.grossP),
    cisRate: row.cisRate,
    cisDeduction: formatPence(row.cisDeductionP),
    netPayment: formatPence(row.netPaymentP),
    hasAttachment: row.attachmentBytes !== null,
  };
}
