import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { VERIFICATION_STATUSES } from "../enums";
import { INVOICE_STATUSES, STATEMENT_ISSUE_METHODS, SUBCONTRACTOR_TYPES, VAT_SCHEMES, VERIFICATION_METHODS } from "../enums";
import { STATEMENT_STATUSES } from "../enums";
import { tenants } from "./platform";

/** One settings document per tenant. The contractor UTR is stored encrypted. */
export const cisSettings = sqliteTable("cis_settings", {
  tenantId: text("tenant_id")
    .primaryKey()
    .references(() => tenants.id),
  active: integer("active", { mode: "boolean" }).notNull().default(false),
  companyName: text("company_name").notNull().default(""),
  employerRef: text("employer_ref").notNull().default(""),
  accountsOfficeRef: text("accounts_office_ref").notNull().default(""),
  utrEnc: text("utr_enc"),
  utrMasked: text("utr_masked"),
  vatScheme: text("vat_scheme", { enum: VAT_SCHEMES }).notNull().default("standard"),
  emailStatements: integer("email_statements", { mode: "boolean" }).notNull().default(true),
  warningDays: integer("warning_days").notNull().default(3),
  statementDeadlineDays: integer("statement_deadline_days").notNull().default(14),
  emailFrom: text("email_from"),
  emailReplyTo: text("email_reply_to"),
  statementFooter: text("statement_footer"),
  // The contractor is the end user of the construction services it buys (or an intermediary
  // supplier): the domestic reverse charge does not apply to what it is invoiced.
  endUser: integer("end_user", { mode: "boolean" }).notNull().default(false),
  // Government Gateway sender id and password for HMRC submissions: AES-GCM like the UTR, never shown back.
  gatewaySenderIdEnc: text("gateway_sender_id_enc"),
  gatewayPasswordEnc: text("gateway_password_enc"),
  gatewayCredentialsUpdatedAt: integer("gateway_credentials_updated_at"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
  updatedBy: text("updated_by"),
});

export const cisSubcontractors = sqliteTable(
  "cis_subcontractors",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    type: text("type", { enum: SUBCONTRACTOR_TYPES }).notNull(),
    name: text("name").notNull(),
    // Lower-cased name for case-insensitive search and ordering without a function index.
    nameLower: text("name_lower").notNull(),
    // AES-GCM ciphertext bound to tenant + record + field; never the plaintext.
    utrEnc: text("utr_enc"),
    utrMasked: text("utr_masked"),
    // HMAC of the normalised UTR: equality search and duplicate checks without the plaintext.
    utrHash: text("utr_hash"),
    ninoEnc: text("nino_enc"),
    ninoMasked: text("nino_masked"),
    companyNumber: text("company_number"),
    vatNumber: text("vat_number"),
    vatCheckedAt: integer("vat_checked_at"),
    email: text("email"),
    phone: text("phone"),
    verificationStatus: text("verification_status", { enum: VERIFICATION_STATUSES }).notNull().default("standard"),
    verificationRate: integer("verification_rate").notNull().default(20),
    verificationMethod: text("verification_method", { enum: VERIFICATION_METHODS }),
    verificationReference: text("verification_reference"),
    verificationNotes: text("verification_notes"),
    verifiedDate: text("verified_date"),
    verifiedBy: text("verified_by"),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    // A local authority or another public body the regulations list: from 6 April 2026 payments to it are outside CIS.
    publicBody: integer("public_body", { mode: "boolean" }).notNull().default(false),
    // Set on every write of the UTR (and by the backfill job for older rows) when it fails HMRC's check digit; null until checked.
    utrInvalid: integer("utr_invalid", { mode: "boolean" }),
    // Portal links issued before this instant no longer sign in (set when the e-mail changes or
    // the subcontractor is archived), so a link sent to an old address dies with it.
    portalLinksValidAfter: integer("portal_links_valid_after"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    createdBy: text("created_by"),
    updatedBy: text("updated_by"),
    deletedAt: integer("deleted_at"),
    deletedBy: text("deleted_by"),
    // The row's entry in cis_subcontractors_search (set by the table's triggers, never by the app).
    searchRowid: integer("search_rowid"),
  },
  (t) => [
    index("cis_subcontractors_tenant_list").on(t.tenantId, t.deletedAt, t.active, t.nameLower),
    // The unfiltered list's order (name, then id) straight from the index: no sort of every row.
    index("cis_subcontractors_tenant_name").on(t.tenantId, t.deletedAt, t.nameLower, t.id),
    index("cis_subcontractors_tenant_utr_hash").on(t.tenantId, t.utrHash),
    // The database, not only the code, refuses a second live subcontractor with the same UTR.
    uniqueIndex("cis_subcontractors_tenant_utr_unique")
      .on(t.tenantId, t.utrHash)
      .where(sql`${t.deletedAt} IS NULL AND ${t.utrHash} IS NOT NULL`),
    index("cis_subcontractors_tenant_type").on(t.tenantId, t.type),
    // A search for a company number finds it without reading the tenant's other rows.
    index("cis_subcontractors_tenant_company_number").on(t.tenantId, t.companyNumber),
    // The UTR check backfill finds the rows still to check without reading the others.
    index("cis_subcontractors_utr_unchecked")
      .on(t.tenantId, t.id)
      .where(sql`${t.utrInvalid} IS NULL AND ${t.utrEnc} IS NOT NULL`),
  ],
);

/** Each portal link issued: who asked, for whom, whether the e-mail went, when it was used. */
export const cisPortalInvites = sqliteTable(
  "cis_portal_invites",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id").notNull(),
    subcontractorId: text("subcontractor_id").notNull(),
    email: text("email").notNull(),
    emailQueued: integer("email_queued", { mode: "boolean" }).notNull().default(false),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    // The staff member who was shown this invite's link (the e-mail failed, or 'Show link'), and
    // when. Only one person may see a link; portal sessions opened with it carry their id.
    revealedBy: text("revealed_by"),
    revealedAt: integer("revealed_at"),
  },
  (t) => [index("cis_portal_invites_tenant_sub").on(t.tenantId, t.subcontractorId, t.createdAt)],
);

export const INVOICE_SOURCES = ["staff", "portal"] as const;
export type InvoiceSource = (typeof INVOICE_SOURCES)[number];

/**
 * Subcontractor invoices. Amounts are whole pence, computed on the server from gross, materials,
 * the rate and VAT; dates the user types (invoice, received, payment) are London calendar dates
 * 'YYYY-MM-DD'; instants (approved, paid, ...) are epoch ms like every other table.
 */
export const cisInvoices = sqliteTable(
  "cis_invoices",
  {
    id: text("id").primaryKey(),
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    invoiceNumber: text("invoice_number").notNull(),
    subcontractorId: text("subcontractor_id").notNull(),
    // Copied at save time: the list searches and shows it without a join, and it survives a rename.
    subcontractorName: text("subcontractor_name").notNull(),
    subcontractorNameLower: text("subcontractor_name_lower").notNull(),
    utrMasked: text("utr_masked"),
    ninoMasked: text("nino_masked"),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    source: text("source", { enum: INVOICE_SOURCES }).notNull().default("staff"),
    invoiceDate: text("invoice_date").notNull(),
    receivedDate: text("received_date"),
    paymentDate: text("payment_date"),
    description: text("description"),
    /** 'YYYY-MM' tax month: of the invoice date until paid, then of the payment date. */
    taxMonth: text("tax_month").notNull(),
    grossP: integer("gross_p").notNull(),
    materialsP: integer("materials_p").notNull(),
    labourP: integer("labour_p").notNull(),
    cisRate: integer("cis_rate").notNull(),
    cisDeductionP: integer("cis_deduction_p").notNull(),
    vatRate: integer("vat_rate").notNull(),
    vatBaseP: integer("vat_base_p").notNull(),
    vatAmountP: integer("vat_amount_p").notNull(),
    grossTotalP: integer("gross_total_p").notNull(),
    netPaymentP: integer("net_payment_p").notNull(),
    materialsPercentage: real("materials_percentage").notNull(),
    reverseCharge: integer("reverse_charge", { mode: "boolean" }).notNull().default(false),
    materialsJustification: text("materials_justification"),
    // The subcontractor's verification as it stood when the invoice was approved.
    verificationStatus: text("verification_status", { enum: VERIFICATION_STATUSES }),
    verificationRate: integer("verification_rate"),
    verificationReference: text("verification_reference"),
    approvedAt: integer("approved_at"),
    approvedBy: text("approved_by"),
    lockedAt: integer("locked_at"),
    paidAt: integer("paid_at"),
    paidBy: text("paid_by"),
    cancelledAt: integer("cancelled_at"),
    cancelledBy: text("cancelled_by"),
    // Paid to a public body on or after 6 April 2026 (the invoice date standing in for the payment date): not a
    // contract payment, so no deduction, no CIS300 line and no statement.
    outsideCis: integer("outside_cis", { mode: "boolean" }).notNull().default(false),
    statementRequired: integer("statement_required", { mode: "boolean" }).notNull().default(false),
    statementRequestedAt: integer("statement_requested_at"),
    statementRequestedBy: text("statement_requested_by"),
    statementIssuedAt: integer("statement_issued_at"),
    statementIssuedMethod: text("statement_issued_method", { enum: STATEMENT_ISSUE_METHODS }),
    // The statement this invoice is on; set once, only while null, so an invoice is never on two.
    statementId: text("statement_id"),
    // A fresh id written by every transition: the audit entry of the same batch lands only on the
    // row this very transition changed, so a transition that lost a race records nothing.
    transitionId: text("transition_id"),
    // Size of the subcontractor's own PDF sent with a portal submission (null: none). Its R2 key
    // follows from the tenant and invoice ids, so the row needs only to say that it exists.
    attachmentBytes: integer("attachment_bytes"),
    // Submitted in a portal session opened with a link a staff member was shown: their user id.
    // That person may neither approve nor pay the invoice (they could have submitted it).
    portalLinkRevealedBy: text("portal_link_revealed_by"),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by"),
    updatedAt: integer("updated_at").notNull(),
    updatedBy: text("updated_by"),
    deletedAt: integer("deleted_at"),
    deletedBy: text("deleted_by"),
    // The row's entry in cis_invoices_search (set by the table's triggers, never by the app).
    searchRowid: integer("search_rowid"),
  },
  (t) => [
    // Default order (newest invoice date first) and the status filter, straight from an index. The
    // trailing columns let the list's search (subcontractor name, invoice number) and filters be
    // judged from the index alone, so a page reads only the rows it shows and the total counts
    // index entries, not table rows (bench/explain-invoices.ts prints the plans).
    index("cis_invoices_tenant_date").on(t.tenantId, t.deletedAt, t.invoiceDate, t.id, t.status, t.taxMonth, t.subcontractorNameLower, t.invoiceNumber),
    index("cis_invoices_tenant_status_date").on(t.tenantId, t.deletedAt, t.status, t.invoiceDate, t.id, t.taxMonth, t.subcontractorNameLower, t.invoiceNumber),
    // Period filters count from the index alone; the This Month CIS card sums from it.
    index("cis_invoices_tenant_tax_month").on(t.tenantId, t.taxMonth, t.deletedAt, t.status, t.invoiceDate, t.id, t.cisDeductionP),
    // The Pending Statements card: only the invoices that still need a statement.
    index("cis_invoices_tenant_statements").on(t.tenantId, t.statementRequired, t.statementIssuedAt, t.deletedAt, t.status),
    // Pending Statements for one tax month (how many subcontractors still need one): only the month's
    // invoices pending a statement are read, not every payment of the month.
    index("cis_invoices_pending_statement_month")
      .on(t.tenantId, t.taxMonth, t.subcontractorId)
      .where(
        sql`${t.status} = 'paid' AND ${t.cisDeductionP} > 0 AND ${t.statementRequired} = 1 AND ${t.statementIssuedAt} IS NULL AND ${t.statementId} IS NULL AND ${t.deletedAt} IS NULL`,
      ),
    index("cis_invoices_tenant_subcontractor").on(t.tenantId, t.subcontractorId),
    index("cis_invoices_tenant_statement_id").on(t.tenantId, t.statementId),
    // When the tenant's first invoice was made (the overdue-returns look-back) without reading every invoice.
    index("cis_invoices_tenant_created").on(t.tenantId, t.createdAt),
    // Payments by date (a return's month, the overdue look-back): only the window's invoices are read.
    index("cis_invoices_tenant_payment_date").on(t.tenantId, t.paymentDate),
    // One live invoice per number and subcontractor; a soft-deleted one frees the number.
    uniqueIndex("cis_invoices_number_unique")
      .on(t.tenantId, t.subcontractorId, t.invoiceNumber)
      .where(sql`${t.deletedAt} IS NULL`),
  ],
);

export { STATEMENT_STATUSES, type StatementStatus } from "../enums";

/**
 * Payment and deduction statements: one per subcontractor and tax month. Totals are the sums of
 * the linked invoices' stored pence, fixed when the statement is generated; the invoices point
 * back through cis_invoices.statement_id.
 */
export const cisStatements = sqliteTable(
  "cis_statements",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    id: text("id").primaryKey(),
    subcontractorId: text("subcontractor_id").notNull(),
    // Copied at generation: the statement shows who it was for even after a rename.
    subcontractorName: text("subcontractor_name").notNull(),
    utrMasked: text("utr_masked"),
    /** 'YYYY-MM' tax month label. */
    taxMonth: text("tax_month").notNull(),
    /** JSON array of invoice ids, in invoice date order. */
    invoiceIds: text("invoice_ids").notNull(),
    invoiceCount: integer("invoice_count").notNull(),
    grossP: integer("gross_p").notNull(),
    materialsP: integer("materials_p").notNull(),
    labourP: integer("labour_p").notNull(),
    cisDeductionP: integer("cis_deduction_p").notNull(),
    status: text("status", { enum: STATEMENT_STATUSES }).notNull().default("generated"),
    generatedAt: integer("generated_at").notNull(),
    generatedBy: text("generated_by"),
    issuedAt: integer("issued_at"),
    issuedMethod: text("issued_method", { enum: STATEMENT_ISSUE_METHODS }),
    // R2 key of the rendered PDF, written once it exists so an issued statement never changes.
    pdfKey: text("pdf_key"),
    // The outbox row of the statement's latest e-mail (issue by e-mail, or a resend): the page
    // shows 'E-mail not sent' and offers Resend while that row has failed.
    emailOutboxId: text("email_outbox_id"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    // The database refuses a second statement for the same subcontractor and month, even in a race.
    uniqueIndex("cis_statements_tenant_sub_month_unique").on(t.tenantId, t.subcontractorId, t.taxMonth),
    index("cis_statements_tenant_month").on(t.tenantId, t.taxMonth, t.subcontractorName),
  ],
);

/**
 * A statement's document (JSON) as first rendered: contractor details, the subcontractor's
 * verification and the invoices as they stood then. Written once (the primary key turns a second
 * first rendering into a no-op); the PDF and the HTML download are both rendered from it, so later
 * settings or subcontractor edits never change an issued statement.
 */
export const cisStatementDocuments = sqliteTable(
  "cis_statement_documents",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    statementId: text("statement_id").notNull(),
    document: text("document").notNull(),
    // The subcontractor's full UTR as it stood at freezing, which the statement must show:
    // AES-GCM bound to this row (table cis_statement_documents, record = statement id, field utr),
    // never in the JSON document. Null for documents frozen before statements showed it.
    utrEnc: text("utr_enc"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.statementId] })],
);

/**
 * The tenant's live invoices (not soft-deleted) counted per status and tax month, with their CIS
 * deductions summed and those pending a statement counted. Kept by triggers on cis_invoices (see
 * the migration that made this table): every insert, update and delete of an invoice adjusts its
 * row in the same statement, so the figures can never lag the invoices. The invoice list's total
 * and stat cards sum these few rows instead of counting every invoice of the tenant.
 */
export const cisInvoiceCounts = sqliteTable(
  "cis_invoice_counts",
  {
    tenantId: text("tenant_id").notNull(),
    status: text("status", { enum: INVOICE_STATUSES }).notNull(),
    taxMonth: text("tax_month").notNull(),
    n: integer("n").notNull().default(0),
    cisDeductionP: integer("cis_deduction_p").notNull().default(0),
    // Paid, deducted, statement required, not on a statement and not issued: the invoices pending a statement.
    pendingStatements: integer("pending_statements").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.status, t.taxMonth] })],
);

/**
 * The tenant's live subcontractors counted per active flag, type and verification status, kept by
 * triggers on cis_subcontractors in the same statement as each write: the list's total and summary
 * cards sum these few rows instead of counting every subcontractor.
 */
export const cisSubcontractorCounts = sqliteTable(
  "cis_subcontractor_counts",
  {
    tenantId: text("tenant_id").notNull(),
    active: integer("active", { mode: "boolean" }).notNull(),
    type: text("type", { enum: SUBCONTRACTOR_TYPES }).notNull(),
    verificationStatus: text("verification_status", { enum: VERIFICATION_STATUSES }).notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.active, t.type, t.verificationStatus] })],
);

/**
 * The tenant's contract payments counted per tax month: live, paid invoices with a subcontractor and
 * not outside CIS, each counted once in the month it is labelled with and once in the month its
 * payment date falls in (6th to 5th) when that is another, with their CIS deductions summed. Kept by
 * triggers on cis_invoices in the same statement as every insert, update and delete (see the
 * migration that made this table), so the returns page and the overdue list read a row per month
 * instead of every payment of the months they look at.
 */
export const cisPaidMonthCounts = sqliteTable(
  "cis_paid_month_counts",
  {
    tenantId: text("tenant_id").notNull(),
    taxMonth: text("tax_month").notNull(),
    n: integer("n").notNull().default(0),
    cisDeductionP: integer("cis_deduction_p").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.taxMonth] })],
);
