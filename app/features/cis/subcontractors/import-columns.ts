/** The subcontractor import file's shape: shared by the page (client) and the server. */
import type { ImportColumn } from "../csv-import/import-kit";

export type ImportColumnKey =
  | "name"
  | "type"
  | "utr"
  | "nino"
  | "companyNumber"
  | "vatNumber"
  | "email"
  | "phone"
  | "verificationStatus"
  | "verificationMethod"
  | "verificationReference"
  | "verifiedDate";

/** The columns an import reads, matched by header name (case and spacing ignored), in template order. */
export const IMPORT_COLUMNS: readonly ImportColumn<ImportColumnKey>[] = [
  { header: "Name", key: "name", required: true, format: "2 to 100 characters" },
  { header: "Type", key: "type", required: true, format: "individual, company or partnership" },
  { header: "UTR", key: "utr", required: true, format: "10 digits (spaces ignored)" },
  { header: "NINO", key: "nino", required: false, format: "individuals only, e.g. AB123456C" },
  { header: "Company Number", key: "companyNumber", required: false, format: "companies and partnerships, 8 letters or digits" },
  { header: "VAT Number", key: "vatNumber", required: false, format: "optional GB, then 9 or 12 digits" },
  { header: "Email", key: "email", required: false, format: "e-mail address" },
  { header: "Phone", key: "phone", required: false, format: "UK number, e.g. 07700 900123 or +44 7700 900123" },
  {
    header: "Verification Status",
    key: "verificationStatus",
    required: false,
    format: "gross, standard or higher (blank = standard; sets the rate 0, 20 or 30%)",
  },
  { header: "Verification Method", key: "verificationMethod", required: false, format: "online, phone or letter" },
  { header: "Verification Reference", key: "verificationReference", required: false, format: "up to 50 characters" },
  { header: "Verified Date", key: "verifiedDate", required: false, format: "YYYY-MM-DD or DD/MM/YYYY" },
];

export const IMPORT_TEMPLATE_FILE = "cis-subcontractors-import-template.csv";
