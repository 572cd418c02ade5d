import type { InvoiceStatus } from "~/features/cis";
import { useId } from "react";
import { TableScroll } from "~/components/ui/table";
import { PortalTableHead } from "./portal-table";

/** Statuses in the subcontractor's words: a portal submission waits for the contractor. */
export const PORTAL_STATUS_LABELS: Readonly<Record<InvoiceStatus, string>> = {
  draft: "Draft",
  portal_draft: "Awaiting approval",
  approved: "Approved",
  paid: "Paid",
  cancelled: "Cancelled",
};

export type PortalInvoiceItem = {
  id: string;
  invoiceNumber: string;
  invoiceDate: string;
  status: InvoiceStatus;
  gross: string;
  cisRate: number;
  cisDeduction: string;
  netPayment: string;
  hasAttachment: boolean;
};

/**
 * The subcontractor's invoices: number, what they are paid and the status first (what a phone shows
 * without scrolling the table), then date, gross and CIS, and their own PDF when they sent one.
 */
export function PortalInvoiceTable({ invoices, caption }: { invoices: PortalInvoiceItem[]; caption: string }) {
  const captionId = useId();
  return (
    <TableScroll captionId={captionId} className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="portal-invoices">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <PortalTableHead
          columns={[
            { label: "Invoice" },
            { label: "Net", numeric: true },
            { label: "Status" },
            { label: "Date" },
            { label: "Gross", numeric: true },
            { label: "CIS", numeric: true },
          ]}
          linkColumn="Your PDF"
        />
        <tbody>
          {invoices.map((inv) => (
            <tr key={inv.id} className="border-t border-line" data-invoice-id={inv.id}>
              <td className="py-2 pr-4 font-medium">{inv.invoiceNumber}</td>
              <td className="py-2 pr-4 text-right whitespace-nowrap">{inv.netPayment}</td>
              <td className="py-2 pr-4">
                <span className="inline-block rounded-full bg-surface px-2 py-0.5 text-xs font-medium whitespace-nowrap" data-status={inv.status}>
                  {PORTAL_STATUS_LABELS[inv.status]}
                </span>
              </td>
              <td className="py-2 pr-4 whitespace-nowrap">{inv.invoiceDate}</td>
              <td className="py-2 pr-4 text-right whitespace-nowrap">{inv.gross}</td>
              <td className="py-2 pr-4 text-right whitespace-nowrap">{`${inv.cisDeduction} (${inv.cisRate}%)`}</td>
              <td className="py-2">
                {inv.hasAttachment ? (
                  <a href={`/portal/invoices/${inv.id}.pdf`} download className="underline">
                    PDF
                    <span className="sr-only">{` of invoice ${inv.invoiceNumber}`}</span>
                  </a>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
