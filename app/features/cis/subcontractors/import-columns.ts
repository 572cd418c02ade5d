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
  | "verifiedDate"
  | "publicBody";

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
  {
    header: "Public Body",
    key: "publicBody",
    required: false,
    format: "yes or no (blank = no): a local authority or other public body, whose payments from 6 April 2026 are not CIS payments",
  },
];

/** The Public Body column's answers (case ignored); anything else is refused with PUBLIC_BODY_IMPORT_MESSAGE. */
const YES_NO: Readonly<Record<string, boolean>> = { yes: true, y: true, true: true, "1": true, no: false, n: false, false: false, "0": false, "": false };
export const PUBLIC_BODY_IMPORT_MESSAGE = "Public Body must be yes or no (blank for no)";

/** The Public Body cell as a flag; null when it is neither yes nor no. */
export function publicBodyCell(value: string | undefined): boolean | null {
  return YES_NO[(value ?? "").trim().toLowerCase()] ?? null;
}

export const IMPORT_TEMPLATE_FILE = "cis-subcontractors-import-template.csv";
