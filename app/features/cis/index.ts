// Public surface of the cis feature: shared code and types, safe on client and server (no *.server module).
// Other code imports this feature only through here or index.server.ts (ADR 0049, checked by `npm run lint`).
export {
  CIS_SCOPE_REGISTRATION,
  type CisScope,
  formatPence,
  INVOICE_STATUSES,
  invoiceFormSchema,
  type InvoiceStatus,
  MATERIALS_JUSTIFICATION_MIN_LENGTH,
  MATERIALS_JUSTIFICATION_PERCENT,
  STATEMENT_ISSUE_METHODS,
  SUBCONTRACTOR_TYPES,
  type SubcontractorType,
  taxMonthFromLabel,
  utrCheckDigit,
  VAT_RATES,
  VAT_SCHEMES,
  VERIFICATION_METHODS,
  VERIFICATION_STATUSES,
  type VerificationStatus,
} from "./domain";
export { INVOICE_ERROR_MESSAGES } from "./invoices/invoice-codes";
export { ATTACH_AGAIN, PORTAL_ATTACHMENT_MESSAGES, PORTAL_PDF_MAX_BYTES } from "./invoices/portal-invoice-codes";
export { attachmentHeaders } from "./statements/statement-params";
export { DEV_HMRC_MODES } from "./hmrc/codes";
export { cisRoutes } from "./routes.config";
export { InvoiceAmountFields, InvoiceDetailsFields } from "./invoices/components/invoice-fields";
