import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { RETURN_STATUSES } from "../enums";
import { tenants } from "./platform";

/**
 * CIS300 monthly returns. The original return of a tax month has the month's label as its id
 * ('2026-04'); an amendment is its own row ('2026-04-AMD-{epoch ms}') pointing at the return it
 * amends. Ids repeat across tenants, so the key is (tenant, id). Totals are whole pence; deadlines
 * and instants epoch ms.
 */
export const cisReturns = sqliteTable(
  "cis_returns",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    id: text("id").notNull(),
    /** 'YYYY-MM' tax month label. */
    taxMonth: text("tax_month").notNull(),
    amendmentOf: text("amendment_of"),
    status: text("status", { enum: RETURN_STATUSES }).notNull(),
    subcontractorCount: integer("subcontractor_count").notNull().default(0),
    invoiceCount: integer("invoice_count").notNull().default(0),
    grossP: integer("gross_p").notNull().default(0),
    materialsP: integer("materials_p").notNull().default(0),
    cisDeductedP: integer("cis_deducted_p").notNull().default(0),
    filingDeadline: integer("filing_deadline").notNull(),
    paymentDeadline: integer("payment_deadline").notNull(),
    statementsDeadline: integer("statements_deadline").notNull(),
    /** What return validation found at the last compile: [] when valid. */
    issues: text("issues", { mode: "json" }).$type<string[]>().notNull().default([]),
    locked: integer("locked", { mode: "boolean" }).notNull().default(false),
    lockedAt: integer("locked_at"),
    compiledBy: text("compiled_by"),
    compiledAt: integer("compiled_at"),
    // A fresh id written by every compile: the lines and the audit entry of the same batch land only
    // when this very compile wrote the row (a return locked in between keeps its lines).
    compileId: text("compile_id"),
    // Submission (written by the HMRC gateway): who, when, HMRC's correlation id or receipt, the IRmark sent.
    submittedAt: integer("submitted_at"),
    submittedBy: text("submitted_by"),
    submissionRef: text("submission_ref"),
    irmark: text("irmark"),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    updatedBy: text("updated_by"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // One original return per tenant and month, even when two compiles race past the lock's lease.
    uniqueIndex("cis_returns_original_unique")
      .on(t.tenantId, t.taxMonth)
      .where(sql`${t.amendmentOf} IS NULL`),
    // At most one amendment of a month open (not yet submitted) at a time.
    uniqueIndex("cis_returns_open_amendment_unique")
      .on(t.tenantId, t.taxMonth)
      .where(sql`${t.amendmentOf} IS NOT NULL AND ${t.locked} = 0`),
    // Historical Returns: newest months first.
    index("cis_returns_tenant_recent").on(t.tenantId, t.taxMonth, t.createdAt),
  ],
);

/** One line per subcontractor paid in the return's month; `position` is the line's number less one. */
export const cisReturnLines = sqliteTable(
  "cis_return_lines",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    returnId: text("return_id").notNull(),
    position: integer("position").notNull(),
    subcontractorId: text("subcontractor_id").notNull(),
    name: text("name").notNull(),
    utrMasked: text("utr_masked"),
    ninoMasked: text("nino_masked"),
    grossP: integer("gross_p").notNull(),
    materialsP: integer("materials_p").notNull(),
    cisDeductedP: integer("cis_deducted_p").notNull(),
    cisRate: integer("cis_rate").notNull(),
    invoiceCount: integer("invoice_count").notNull(),
    verificationRef: text("verification_ref"),
    statementsIssued: integer("statements_issued", { mode: "boolean" }).notNull(),
    lastStatementDate: integer("last_statement_date"),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.returnId, t.subcontractorId] }), index("cis_return_lines_position").on(t.tenantId, t.returnId, t.position)],
);

export const NO_PAYMENT_NOTICE_SOURCES = ["cis300", "other"] as const;

/**
 * Notices to HMRC that no contract payments will be made: the inactivity declaration on an accepted
 * CIS300 (source 'cis300', the return it was on; it speaks for the six tax months after that
 * return's month) or one given another way (source 'other'). A month needs no nil return only when
 * a notice speaking for it was given no later than 14 days before it started.
 */
export const cisNoPaymentNotices = sqliteTable(
  "cis_no_payment_notices",
  {
    tenantId: text("tenant_id")
      .notNull()
      .references(() => tenants.id),
    id: text("id").notNull(),
    source: text("source", { enum: NO_PAYMENT_NOTICE_SOURCES }).notNull(),
    /** 'YYYY-MM-DD', the London calendar date the notice was given. */
    givenOn: text("given_on").notNull(),
    /** 'YYYY-MM', the first tax month it speaks for. */
    firstMonth: text("first_month").notNull(),
    months: integer("months").notNull(),
    /** The return whose inactivity declaration it is (source 'cis300'). */
    returnId: text("return_id"),
    createdAt: integer("created_at").notNull(),
    createdBy: text("created_by"),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.id] }),
    // One declaration per accepted return, however often the acceptance is applied.
    uniqueIndex("cis_no_payment_notices_return")
      .on(t.tenantId, t.returnId)
      .where(sql`${t.returnId} IS NOT NULL`),
    index("cis_no_payment_notices_tenant_month").on(t.tenantId, t.firstMonth),
  ],
);
