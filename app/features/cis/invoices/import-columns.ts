/** The invoice import file's shape: shared by the page (client) and the server. */
import type { ImportColumn } from "../csv-import/import-kit";

export type InvoiceImportColumnKey =
  | "invoiceNumber"
  | "subcontractor"
  | "invoiceDate"
  | "receivedDate"
  | "description"
  | "gross"
  | "materials"
  | "vatRate"
  | "reverseCharge"
  | "materialsJustification"
  | "status";

/**
 * The columns an import reads, matched by header name (case and spacing ignored), in template
 * order. `aliases` are the invoice export's own headers, so an exported file can be edited and
 * imported again; the export's CIS and Net columns are ignored (amounts are always computed).
 */
export const INVOICE_IMPORT_COLUMNS: readonly ImportColumn<InvoiceImportColumnKey>[] = [
  { header: "Invoice Number", key: "invoiceNumber", required: true, format: "1 to 50 characters; unique per subcontractor" },
  {
    header: "Subcontractor",
    key: "subcontractor",
    required: true,
    format: "the name of an active subcontractor (exactly as on file, any case) or their 10-digit UTR",
  },
  { header: "Invoice Date", key: "invoiceDate", required: true, format: "YYYY-MM-DD or DD/MM/YYYY", aliases: ["Date"] },
  { header: "Received Date", key: "receivedDate", required: false, format: "YYYY-MM-DD or DD/MM/YYYY" },
  { header: "Description", key: "description", required: false, format: "up to 1000 characters" },
  { header: "Gross", key: "gross", required: true, format: "pounds, e.g. 1234.56 or £1,234.56" },
  { header: "Materials", key: "materials", required: false, format: "pounds (blank = none); not more than Gross" },
  { header: "VAT Rate", key: "vatRate", required: false, format: "0, 5 or 20 (blank = 0)" },
  { header: "Reverse Charge", key: "reverseCharge", required: false, format: "yes or no (blank = no)" },
  {
    header: "Materials Justification",
    key: "materialsJustification",
    required: false,
    format: "required (at least 10 characters) when materials are 80% or more of gross",
  },
  { header: "Status", key: "status", required: false, format: "blank or draft: imported invoices are always drafts" },
];

export const INVOICE_IMPORT_TEMPLATE_FILE = "cis-invoices-import-template.csv";
