// Public surface of the cis feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
// Each from its own file, not the domain's index: that also re-exports the HMRC XML code and
// the zod schemas, and a browser page importing any name here would load them all.
export { CIS_SCOPE_REGISTRATION, type CisScope } from "./domain/scopes";
export { formatPence } from "./domain/money";
export {
  INVOICE_STATUSES,
  type InvoiceStatus,
  STATEMENT_ISSUE_METHODS,
  SUBCONTRACTOR_TYPES,
  type SubcontractorType,
  VAT_SCHEMES,
  VERIFICATION_METHODS,
} from "./domain/types";
export { invoiceFormSchema } from "./domain/schemas";
export { MATERIALS_JUSTIFICATION_MIN_LENGTH, MATERIALS_JUSTIFICATION_PERCENT } from "./domain/materials";
export { taxMonthFromLabel } from "./domain/tax-month";
export { utrCheckDigit } from "./domain/references";
export { VAT_RATES, VERIFICATION_STATUSES, type VerificationStatus } from "./domain/calculation";
export { INVOICE_ERROR_MESSAGES } from "./invoices/invoice-codes";
export { ATTACH_AGAIN, PORTAL_ATTACHMENT_MESSAGES, PORTAL_PDF_MAX_BYTES } from "./invoices/portal-invoice-codes";
export { attachmentHeaders } from "./statements/statement-params";
export { DEV_HMRC_MODES } from "./hmrc/codes";
export { InvoiceAmountFields, InvoiceDetailsFields } from "./invoices/components/invoice-fields";
