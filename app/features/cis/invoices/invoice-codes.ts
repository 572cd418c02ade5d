import { INVOICE_STATUSES } from "../domain/types";

// Constants and error codes of invoices that pages render as well as the server: kept out of
// transitions.server.ts so route components can import them without pulling server code into the browser.

export const INVOICE_PAGE_SIZE = 25;
// D1 binds at most 100 parameters per statement; the id lists below stay well under it.
export const INVOICE_BULK_LIMIT = 50;

// ---------------------------------------------------------------------------
// Errors

export type InvoiceErrorCode =
  | "not_found"
  | "not_editable"
  | "not_approvable"
  | "not_rejectable"
  | "not_payable"
  | "revealer_cannot_approve"
  | "revealer_cannot_pay"
  | "not_cancellable"
  | "on_statement"
  | "not_deletable"
  | "not_statement_eligible"
  | "statement_unpaid"
  | "subcontractor_not_found"
  | "subcontractor_archived"
  | "duplicate_number"
  | "invalid_payment_date"
  | "too_many";

/** What each code says to a person; routes show these, code compares the codes. */
export const INVOICE_ERROR_MESSAGES: Readonly<Record<InvoiceErrorCode, string>> = {
  not_found: "Invoice not found",
  not_editable: "Only draft invoices can be edited",
  not_approvable: "Only draft or portal-submitted invoices can be approved",
  not_rejectable: "Only portal-submitted invoices can be rejected",
  not_payable: "Only approved invoices can be marked paid",
  revealer_cannot_approve: "You revealed the portal link this invoice was submitted through, so another person must approve it.",
  revealer_cannot_pay: "You revealed the portal link this invoice was submitted through, so another person must mark it paid.",
  not_cancellable: "Only draft, portal-submitted or approved invoices can be cancelled",
  on_statement: "This invoice is on a payment and deduction statement and cannot be cancelled",
  not_deletable: "Only draft, portal-submitted or cancelled invoices can be deleted",
  not_statement_eligible: "Statements can only be requested for paid invoices",
  statement_unpaid:
    "This invoice has not been paid yet. A payment and deduction statement covers payments made: mark it paid, and it goes on the statement of the tax month of its payment date",
  subcontractor_not_found: "Subcontractor not found",
  subcontractor_archived: "Archived subcontractors cannot be used for new invoices",
  duplicate_number: "This subcontractor already has an invoice with this number",
  invalid_payment_date: "Payment date must be a real date",
  too_many: `At most ${INVOICE_BULK_LIMIT} invoices can be changed at once`,
};

/** The refusals that are about who is acting, not the invoice's state (403 rather than 409). */
export const FOUR_EYES_CODES: readonly InvoiceErrorCode[] = ["revealer_cannot_approve", "revealer_cannot_pay"];

export const INVOICE_STATUS_FILTERS = ["all", ...INVOICE_STATUSES] as const;
export type InvoiceStatusFilter = (typeof INVOICE_STATUS_FILTERS)[number];
export const INVOICE_PERIODS = ["all", "current", "previous", "quarter", "year"] as const;
export type InvoicePeriod = (typeof INVOICE_PERIODS)[number];

export const BULK_INVOICE_ACTIONS = ["approve", "pay", "delete", "statement"] as const;
export type BulkInvoiceAction = (typeof BULK_INVOICE_ACTIONS)[number];

export type InvoiceEmailErrorCode = "not_found" | "no_email";
export const INVOICE_EMAIL_ERROR_MESSAGES: Readonly<Record<InvoiceEmailErrorCode, string>> = {
  not_found: "Invoice not found",
  no_email: "This subcontractor has no email address",
};
