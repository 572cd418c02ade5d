import type { InvoiceStatus } from "~/features/cis";
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

/** The subcontractor's invoices: number, date, amounts, status and their own PDF when they sent one. */
export function PortalInvoiceTable({ invoices, caption }: { invoices: PortalInvoiceItem[]; caption: string }) {
  return (
    <div className="mt-3 overflow-x-auto">
      <table className="w-full text-left text-sm" data-testid="portal-invoices">
        <caption className="sr-only">{caption}</caption>
        <PortalTableHead
          columns={[
            { label: "Invoice" },
            { label: "Date" },
            { label: "Gross", numeric: true },
            { label: "CIS", numeric: true },
            { label: "Net", numeric: true },
            { label: "Status" },
          ]}
          linkColumn="Your PDF"
        />
        <tbody>
          {invoices.map((inv) => (
            <tr key={inv.id} className="border-t border-line" data-invoice-id={inv.id}>
              <td className="py-2 pr-4 font-medium">{inv.invoiceNumber}</td>
              <td className="py-2 pr-4">{inv.invoiceDate}</td>
              <td className="py-2 pr-4 text-right">{inv.gross}</td>
              <td className="py-2 pr-4 text-right">{`${inv.cisDeduction} (${inv.cisRate}%)`}</td>
              <td className="py-2 pr-4 text-right">{inv.netPayment}</td>
              <td className="py-2 pr-4">
                <span className="inline-block rounded-full bg-surface px-2 py-0.5 text-xs font-medium" data-status={inv.status}>
                  {PORTAL_STATUS_LABELS[inv.status]}
                </span>
              </td>
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
    </div>
  );
}
