/**
 * Entity shapes as the rules engine sees them. Storage
 * adds columns (encrypted PII, audit fields); these types carry only what the
 * rules read, so callers can pass rows straight in. Instants are accepted as
 * Date or ISO strings because rows come from both D1 (strings) and code (Dates).
 */
import { STATEMENT_STATUSES, type StatementStatus } from "~/db/enums";
import type { CisRate, VatRate, VerificationStatus } from "./calculation";
import { SUBCONTRACTOR_TYPES, VERIFICATION_METHODS, VAT_SCHEMES, INVOICE_STATUSES, STATEMENT_ISSUE_METHODS, RETURN_STATUSES } from "~/db/enums";

export { SUBCONTRACTOR_TYPES, VERIFICATION_METHODS, VAT_SCHEMES, INVOICE_STATUSES, STATEMENT_ISSUE_METHODS, RETURN_STATUSES } from "~/db/enums";

export type DateLike = Date | string;

export type SubcontractorType = (typeof SUBCONTRACTOR_TYPES)[number];

export type VerificationMethod = (typeof VERIFICATION_METHODS)[number];

export type VatScheme = (typeof VAT_SCHEMES)[number];

export interface SubcontractorVerification {
  status: VerificationStatus;
  rate: CisRate;
  method?: VerificationMethod | null;
  reference?: string | null;
  notes?: string | null;
  verifiedDate?: string | null;
  verifiedBy?: string | null;
}

export interface SubcontractorRecord {
  id: string;
  type?: SubcontractorType;
  name: string;
  utrMasked?: string | null;
  ninoMasked?: string | null;
  companyNumber?: string | null;
  verification?: SubcontractorVerification | null;
  active?: boolean;
}

export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

export interface InvoiceAmountsRecord {
  grossP: number;
  materialsP: number;
  labourP: number;
  cisDeductionP: number;
  vatBaseP?: number;
  vatAmountP?: number;
  grossTotalP?: number;
  netPaymentP?: number;
  materialsPercentage?: number;
}

export type StatementIssueMethod = (typeof STATEMENT_ISSUE_METHODS)[number];

export interface InvoiceStatementFlags {
  required?: boolean;
  requestedAt?: DateLike | null;
  requestedBy?: string | null;
  issuedAt?: DateLike | null;
  issuedMethod?: StatementIssueMethod | null;
}

export interface InvoiceRecord {
  id: string;
  invoiceNumber?: string;
  subcontractorId?: string | null;
  subcontractorName?: string | null;
  status: InvoiceStatus;
  invoiceDate?: string | null;
  paymentDate?: DateLike | null;
  /** Tax month label ('YYYY-MM'), set when the invoice is paid. */
  taxMonth?: string | null;
  amounts: InvoiceAmountsRecord;
  vatRate?: VatRate;
  reverseCharge?: boolean;
  piiMasked?: { utrMasked?: string | null; ninoMasked?: string | null } | null;
  verificationSnapshot?: { rate?: CisRate | null; reference?: string | null } | null;
  statement?: InvoiceStatementFlags | null;
  deletedAt?: DateLike | null;
  archived?: boolean;
  /** Paid to a public body on or after 6 April 2026: not a contract payment (no deduction, no CIS300 line). */
  outsideCis?: boolean;
}

export { STATEMENT_STATUSES, type StatementStatus };

export interface StatementRecord {
  id?: string;
  subcontractorId: string;
  taxMonth: string;
  status: StatementStatus;
  issuedAt?: DateLike | null;
  issuedMethod?: StatementIssueMethod | null;
}

export type ReturnStatus = (typeof RETURN_STATUSES)[number];

export interface ReturnLine {
  subcontractorId: string;
  name: string;
  utrMasked: string | null;
  ninoMasked: string | null;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
  cisRate: CisRate;
  invoiceCount: number;
  verificationRef: string | null;
  statementsIssued: boolean;
  /** ISO instant of the latest issued statement, or null. */
  lastStatementDate: string | null;
}

export interface ReturnTotals {
  subcontractors: number;
  invoices: number;
  grossP: number;
  materialsP: number;
  cisDeductedP: number;
}

export interface ReturnPeriod {
  taxMonth: string;
  startDate: Date;
  endDate: Date;
  label: string;
  displayLabel: string;
}

export interface CisReturn {
  /** The tax month label for an original return; '{id}-AMD-{timestamp}' for amendments. */
  id?: string;
  taxMonth: string;
  period?: ReturnPeriod;
  deadlines?: { filing: Date; payment: Date; statements: Date };
  totals: ReturnTotals;
  lines: ReturnLine[];
  status: ReturnStatus;
  locked?: boolean;
  amendmentOf?: string | null;
}
